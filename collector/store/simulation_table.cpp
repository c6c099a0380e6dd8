#include "collector/store/simulation_table.hpp"

#include "collector/store/database.hpp"
#include "collector/store/run_writer.hpp"
#include "collector/store/sql_connection.hpp"

#include <SQLiteCpp/Statement.h>

namespace hitmap::store {

void RunWriter::write(const SimulationRecord& record) {
    SQLite::Statement insert(sql_connection(db_),
                             "INSERT INTO run_simulation (run_id, machine, machine_json, "
                             "calibration_json, stats_json) VALUES (?, ?, ?, ?, ?)");
    insert.bind(1, run_id_);
    insert.bind(2, record.machine);
    insert.bind(3, record.machine_json);
    insert.bind(4, record.calibration_json);
    insert.bind(5, record.stats_json);
    insert.exec();
}

std::optional<SimulationRecord> read_simulation(Database& db, std::int64_t run_id) {
    SQLite::Database& sql = sql_connection(db);
    SQLite::Statement q(sql, "SELECT machine, machine_json, calibration_json, stats_json FROM "
                             "run_simulation WHERE run_id = ?");
    q.bind(1, run_id);
    if (!q.executeStep())
        return std::nullopt;
    return SimulationRecord{q.getColumn(0).getString(), q.getColumn(1).getString(),
                            q.getColumn(2).getString(), q.getColumn(3).getString()};
}

} // namespace hitmap::store
