#include "collector/store/merge.hpp"

#include "collector/store/c2c_tables.hpp"
#include "collector/store/errors.hpp"
#include "collector/store/file_probe.hpp"
#include "collector/store/sql_connection.hpp"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <set>
#include <vector>

namespace hitmap::store {

namespace {

// A column whose ids are the input's and become the output's through a temporary map.
struct Mapped {
    std::string_view column, map;
};

// How the rows of one table follow the runs they belong to: which rows are copied (`rows`, a
// condition on the input's row `s`), which columns are renumbered, and which are left for the
// output to fill (a new id, or a column set once every run is in). Everything but machines and
// layouts, which are matched by content, is copied this way.
struct TableCopy {
    std::string_view table, rows;
    std::vector<Mapped> mapped;
    std::vector<std::string_view> assigned{};
    bool shared = false; // rows the output may hold already (OR IGNORE keeps the output's)
};

constexpr std::string_view kFreshRun = "s.run_id IN (SELECT old FROM temp.run_map WHERE fresh)";
constexpr std::string_view kFreshTable = "s.table_id IN (SELECT old FROM temp.table_map)";

const std::vector<TableCopy>& bulk_tables() {
    static const std::vector<TableCopy> tables{
        {"run_metric", kFreshRun, {{"run_id", "run_map"}}},
        {"object", kFreshRun, {{"run_id", "run_map"}, {"layout_id", "layout_map"}}},
        {"cacheline", kFreshRun, {{"run_id", "run_map"}}},
        {"line_field", kFreshRun, {{"run_id", "run_map"}}},
        {"line_cpu", kFreshRun, {{"run_id", "run_map"}}},
        {"field_pair", kFreshRun, {{"run_id", "run_map"}}},
        {"run_trace", kFreshRun, {{"run_id", "run_map"}}},
        {"run_simulation", kFreshRun, {{"run_id", "run_map"}}},
        {"lock_class_stat", kFreshRun, {{"run_id", "run_map"}, {"table_id", "table_map"}}},
        {"lock_point", kFreshTable, {{"table_id", "table_map"}}},
        {"lock_wait_hist", kFreshTable, {{"table_id", "table_map"}}},
        // Shared by every run with the same shape.
        {"layout_field",
         "s.layout_id IN (SELECT old FROM temp.layout_map)",
         {{"layout_id", "layout_map"}},
         {},
         true},
    };
    return tables;
}

// Tables with ids of their own, renumbered by merge_into itself, and the schema's history.
constexpr std::array<std::string_view, 5> kRenumbered{"machine", "run", "layout", "lock_table",
                                                      "schema_version"};

std::vector<std::string> columns_of(SQLite::Database& sql, std::string_view table) {
    SQLite::Statement q(sql, fmt::format("SELECT name FROM pragma_table_info('{}')", table));
    std::vector<std::string> out;
    while (q.executeStep())
        out.push_back(q.getColumn(0).getString());
    return out;
}

// Every table of the output must be one merge_into knows how to copy: a migration that adds a
// table without teaching merge about it is refused instead of silently dropping its rows.
void check_every_table_is_merged(SQLite::Database& sql, const std::filesystem::path& path) {
    SQLite::Statement q(sql, "SELECT name FROM main.sqlite_master WHERE type = 'table' AND "
                             "name NOT LIKE 'sqlite_%'");
    while (q.executeStep()) {
        const std::string name = q.getColumn(0).getString();
        const auto& bulk = bulk_tables();
        const bool known =
            std::find(kRenumbered.begin(), kRenumbered.end(), name) != kRenumbered.end() ||
            std::any_of(bulk.begin(), bulk.end(), [&](const auto& t) { return t.table == name; });
        if (!known)
            throw MergeError(path, fmt::format("table {} is not merged by this build", name));
    }
}

std::string copy_sql(SQLite::Database& sql, const TableCopy& t) {
    std::string names, values;
    for (const std::string& c : columns_of(sql, t.table)) {
        if (std::find(t.assigned.begin(), t.assigned.end(), c) != t.assigned.end())
            continue;
        names += (names.empty() ? "" : ", ") + c;
        const auto m = std::find_if(t.mapped.begin(), t.mapped.end(),
                                    [&](const Mapped& x) { return x.column == c; });
        values += (values.empty() ? "" : ", ") +
                  (m == t.mapped.end()
                       ? "s." + c
                       : fmt::format("(SELECT new FROM temp.{} WHERE old = s.{})", m->map, c));
    }
    return fmt::format("INSERT {}INTO main.{} ({}) SELECT {} FROM src.{} s WHERE {}",
                       t.shared ? "OR IGNORE " : "", t.table, names, values, t.table, t.rows);
}

void copy_table(SQLite::Database& sql, const TableCopy& t) {
    sql.exec(copy_sql(sql, t));
}

// A machine is the output's when every column but id and first_seen matches (machines are
// told apart by host, CPUs, kernel and PMU, as upsert_machine does).
void map_machines(SQLite::Database& sql) {
    constexpr std::string_view same =
        "m.host = s.host AND m.cpu_model IS s.cpu_model AND m.cpu_count IS s.cpu_count AND "
        "m.kernel = s.kernel AND m.cacheline_size IS s.cacheline_size AND m.pmu_json = s.pmu_json";
    sql.exec(fmt::format("INSERT INTO main.machine (host, cpu_model, cpu_count, kernel, "
                         "cacheline_size, pmu_json, first_seen) SELECT host, cpu_model, "
                         "cpu_count, kernel, cacheline_size, pmu_json, first_seen FROM src.machine "
                         "s WHERE NOT EXISTS (SELECT 1 FROM main.machine m WHERE {}) ORDER BY s.id",
                         same));
    sql.exec(fmt::format("INSERT INTO temp.machine_map (old, new) SELECT s.id, (SELECT min(m.id) "
                         "FROM main.machine m WHERE {}) FROM src.machine s",
                         same));
}

// The run columns copied as they are (id, machine_id and predicted_from are renumbered).
std::vector<std::string> plain_run_columns(SQLite::Database& sql) {
    auto columns = columns_of(sql, "run");
    std::erase_if(columns, [](const std::string& c) {
        return c == "id" || c == "machine_id" || c == "predicted_from";
    });
    return columns;
}

void map_runs(SQLite::Database& sql, MergeCounts& counts) {
    // Equal in every column but the ids; the first three are run_by_workload's, for its index.
    std::string same = " AND m.workload = s.workload AND m.variant = s.variant AND m.started_at = "
                       "s.started_at";
    for (const auto& c : plain_run_columns(sql)) {
        // writer_pid/start describe a process on the machine that wrote the run, not the run.
        if (c != "writer_pid" && c != "writer_start")
            same += fmt::format(" AND m.{0} IS s.{0}", c);
    }
    SQLite::Statement each(sql, "SELECT id, status FROM src.run ORDER BY id");
    SQLite::Statement find(
        sql, fmt::format("SELECT m.id FROM main.run m, src.run s WHERE s.id = ?1 AND m.machine_id "
                         "= (SELECT new FROM temp.machine_map WHERE old = s.machine_id){}",
                         same));
    SQLite::Statement insert(
        sql,
        copy_sql(sql,
                 {"run", "s.id = ?", {{"machine_id", "machine_map"}}, {"id", "predicted_from"}}));
    SQLite::Statement map(sql, "INSERT INTO temp.run_map (old, new, fresh) VALUES (?, ?, ?)");
    while (each.executeStep()) {
        const std::int64_t old = each.getColumn(0).getInt64();
        if (each.getColumn(1).getString() == "running") {
            ++counts.running;
            continue;
        }
        find.bind(1, old);
        const bool present = find.executeStep();
        std::int64_t id = present ? find.getColumn(0).getInt64() : 0;
        find.reset();
        if (!present) {
            insert.bind(1, old);
            insert.exec();
            insert.reset();
            id = sql.getLastInsertRowid();
        }
        ++(present ? counts.already_present : counts.added);
        map.bind(1, old);
        map.bind(2, id);
        map.bind(3, present ? 0 : 1);
        map.exec();
        map.reset();
    }
    // A prediction points at the run whose trace it replayed: that run's new id.
    sql.exec("UPDATE main.run SET predicted_from = (SELECT new FROM temp.run_map WHERE old = "
             "(SELECT predicted_from FROM src.run WHERE id = (SELECT old FROM temp.run_map r "
             "WHERE r.new = main.run.id))) WHERE id IN (SELECT new FROM temp.run_map WHERE fresh)");
}

void map_layouts_and_lock_tables(SQLite::Database& sql) {
    // Layouts are one row per shape (signature): an output row of the same shape is reused.
    sql.exec("INSERT OR IGNORE INTO main.layout (struct, version, size, align, signature, hash) "
             "SELECT struct, version, size, align, signature, hash FROM src.layout WHERE id IN "
             "(SELECT layout_id FROM src.object s WHERE " +
             std::string(kFreshRun) + ") ORDER BY id");
    sql.exec("INSERT INTO temp.layout_map (old, new) SELECT s.id, m.id FROM src.layout s JOIN "
             "main.layout m ON m.signature = s.signature WHERE s.id IN (SELECT layout_id FROM "
             "src.object s WHERE " +
             std::string(kFreshRun) + ")");
    copy_table(sql, {"lock_table", kFreshRun, {{"run_id", "run_map"}}, {"id"}});
    // (run_id, position) is unique: the new table of each old one.
    sql.exec("INSERT INTO temp.table_map (old, new) SELECT s.id, m.id FROM src.lock_table s JOIN "
             "temp.run_map r ON r.old = s.run_id AND r.fresh JOIN main.lock_table m ON m.run_id = "
             "r.new AND m.position = s.position");
}

// The copied runs' trace files, renamed for their new ids; the names copied so far go into
// `copied` so that a failure can remove them. A name that leaves the input's trace folder, or a
// file that is not a regular one there, refuses the merge naming the input's run.
void copy_traces(SQLite::Database& sql, const std::filesystem::path& input,
                 const TraceFiles& files_of, MergeCounts& counts,
                 std::vector<std::string>& copied) {
    SQLite::Statement traces(sql, "SELECT r.old, r.new, t.path FROM temp.run_map r JOIN "
                                  "main.run_trace t ON t.run_id = r.new WHERE r.fresh AND t.path "
                                  "IS NOT NULL ORDER BY r.old");
    struct File {
        std::int64_t old, run;
        std::string name;
    };
    std::vector<File> files;
    while (traces.executeStep()) {
        files.push_back({traces.getColumn(0).getInt64(), traces.getColumn(1).getInt64(),
                         traces.getColumn(2).getString()});
        check_trace_name(input, files.back().old, files.back().name);
    }
    SQLite::Statement rename(sql, "UPDATE main.run_trace SET path = ? WHERE run_id = ?");
    for (const auto& [old, run, name] : files) {
        std::optional<std::string> copy;
        try {
            copy = files_of.copy(name, run);
        } catch (const std::runtime_error& e) {
            throw MergeError(input, fmt::format("run {}'s trace: {}", old, e.what()));
        }
        if (copy) {
            copied.push_back(*copy);
            rename.bind(1, *copy);
            ++counts.traces;
        } else {
            rename.bind(1); // NULL: not kept
            ++counts.missing_traces;
        }
        rename.bind(2, run);
        rename.exec();
        rename.reset();
    }
}

} // namespace

MergeCounts merge_into(Database& out, const std::filesystem::path& input,
                       const TraceFiles& traces) {
    std::error_code ec;
    if (std::filesystem::equivalent(out.path(), input, ec))
        throw MergeError(input, "is the output of the merge");
    // Refused here as any read is: not hitmap, corrupt, newer. An older file reads through a
    // migrated copy in memory, but the merge attaches the file itself, so it must be current.
    Database::open(input, {.create_if_missing = false, .read_only = true});
    if (const auto version = probe_schema_version(input);
        version && *version < Database::latest_schema_version())
        throw OlderSchema(input, *version, Database::latest_schema_version());

    SQLite::Database& sql = sql_connection(out);
    MergeCounts counts;
    std::vector<std::string> copied;
    try {
        check_every_table_is_merged(sql, out.path());
        SQLite::Statement attach(sql, "ATTACH DATABASE ? AS src");
        attach.bind(1, input.string());
        attach.exec();
        try {
            out.transaction([&] {
                sql.exec("CREATE TEMP TABLE machine_map (old INTEGER PRIMARY KEY, new INTEGER);"
                         "CREATE TEMP TABLE run_map (old INTEGER PRIMARY KEY, new INTEGER, "
                         "fresh INTEGER);"
                         "CREATE INDEX temp.run_map_by_new ON run_map (new);"
                         "CREATE TEMP TABLE layout_map (old INTEGER PRIMARY KEY, new INTEGER);"
                         "CREATE TEMP TABLE table_map (old INTEGER PRIMARY KEY, new INTEGER);");
                map_machines(sql);
                map_runs(sql, counts);
                map_layouts_and_lock_tables(sql);
                for (const TableCopy& t : bulk_tables())
                    copy_table(sql, t);
                copy_traces(sql, input, traces, counts, copied);
                sql.exec("DROP TABLE temp.machine_map; DROP TABLE temp.run_map; DROP TABLE "
                         "temp.layout_map; DROP TABLE temp.table_map;");
            });
        } catch (...) {
            sql.exec("DETACH DATABASE src");
            throw;
        }
        sql.exec("DETACH DATABASE src");
    } catch (...) {
        for (const auto& name : copied)
            traces.remove(name);
        try {
            throw;
        } catch (const SQLite::Exception& e) {
            throw_decoded(e, out.path());
        }
    }
    return counts;
}

} // namespace hitmap::store
