#pragma once
// What a simulated run was a function of (schemas/migrations/0008_simulation.sql): the machine
// description, the calibration and where the virtual time went, as JSON. Written inside the
// run's finishing transaction (run_writer.hpp); read back by reports.
#include <cstdint>
#include <optional>
#include <string>

namespace hitmap::store {

class Database;

struct SimulationRecord {
    std::string machine;          // its name
    std::string machine_json;     // sim::machine_to_json
    std::string calibration_json; // sim::calibration_to_json
    std::string stats_json;       // virtual time per CPU: work, accesses, spinning
    bool operator==(const SimulationRecord&) const = default;
};

// nullopt for a run that was not simulated.
std::optional<SimulationRecord> read_simulation(Database& db, std::int64_t run_id);

} // namespace hitmap::store
