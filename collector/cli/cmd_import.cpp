// `import lockstat|perf-lock FILE`: lock statistics captured elsewhere become runs of their own,
// one per table in the file, so they can be reported and compared like measured runs.
#include "collector/cli/commands.hpp"
#include "collector/locks/errors.hpp"
#include "collector/locks/lock_import.hpp"
#include "collector/report/output_text.hpp"
#include "collector/store/lock_tables.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace hitmap::cli {

namespace {

// The file to import is missing, a directory or unreadable.
class InputFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The file is readable but is not importable as asked: a bad line ("FILE:LINE: reason"), a
// format this importer does not take, or the other importer's format.
class LockImportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct ImportOptions {
    std::string file;
    CommonOptions common;
};

std::string read_input(const std::string& file) {
    if (std::filesystem::is_directory(file))
        throw InputFileError(fmt::format("cannot read {}: it is a directory", file));
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw InputFileError(fmt::format("cannot read {}: {}", file, std::strerror(errno)));
    // Read straight into one string of the file's size: a stringstream would hold it twice.
    std::string text;
    std::error_code size_unknown; // a pipe: the string grows as it is read
    if (const auto size = std::filesystem::file_size(file, size_unknown); !size_unknown)
        text.reserve(size);
    std::array<char, 1 << 16> chunk;
    while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0)
        text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    if (in.bad())
        throw InputFileError(fmt::format("cannot read {}: {}", file, std::strerror(errno)));
    return text;
}

std::optional<store::LockSource> importer_of(locks::LockFormat format) {
    switch (format) {
    case locks::LockFormat::lockstat_v03:
    case locks::LockFormat::lockstat_v04:
        return store::LockSource::lockstat;
    case locks::LockFormat::perf_lock_contention:
    case locks::LockFormat::perf_lock_contention_csv:
    case locks::LockFormat::perf_lock_report:
        return store::LockSource::perf_lock;
    default:
        return std::nullopt;
    }
}

// What the checking pass keeps of a table: its fields and how many classes, not the classes.
struct TableSummary {
    locks::LockStatReport table; // no classes
    std::size_t classes = 0;
};

// Runs the parser, turning its errors into one "FILE:LINE: reason" line.
void parse_file(const std::string& file, std::string_view text, locks::LockTableSink& sink) {
    try {
        locks::parse_lock_text(text, sink);
    } catch (const locks::LockParseError& e) {
        throw LockImportError(fmt::format("{}:{}: {}", file, e.line(), e.reason()));
    } catch (const locks::LockTextEncodingError& e) {
        throw LockImportError(fmt::format("{} {}", file, e.what()));
    } catch (const locks::UnsupportedLockFormat& e) {
        throw LockImportError(fmt::format("{}: {}", file, e.what()));
    }
}

// The whole file is checked here, before the database is opened, so a refused file changes
// nothing; the rows are parsed again while they are written, so that they are never all held.
std::vector<TableSummary> check_input(const std::string& file, std::string_view text,
                                      store::LockSource wanted) {
    struct Summarising : locks::LockTableSink {
        void begin_table(const locks::LockStatReport&) override { tables.emplace_back(); }
        void add_class(locks::LockClassStats&&) override { ++tables.back().classes; }
        void end_table(const locks::LockStatReport& t) override { tables.back().table = t; }
        std::vector<TableSummary> tables;
    } summary;
    parse_file(file, text, summary);
    const auto found = importer_of(summary.tables.front().table.format);
    if (found != wanted)
        throw LockImportError(
            fmt::format("{} holds {} output, not {} (import it with `hitmap-collect import {}`)",
                        file, locks::to_string(summary.tables.front().table.format),
                        store::to_string(wanted), found ? store::to_string(*found) : "?"));
    return summary.tables;
}

// Writes table `wanted` (0-based) of the text to the run, skipping the others.
class TableWriterSink : public locks::LockTableSink {
public:
    TableWriterSink(SQLite::Database& sql, std::int64_t run_id, store::LockSource source,
                    std::size_t wanted)
        : sql_(sql)
        , run_id_(run_id)
        , source_(source)
        , wanted_(wanted) {}

    void begin_table(const locks::LockStatReport& t) override {
        if (next_++ == wanted_)
            writer_.emplace(sql_, run_id_, source_, t);
    }
    void add_class(locks::LockClassStats&& stats) override {
        if (writer_)
            writer_->add_class(stats);
    }
    void end_table(const locks::LockStatReport& t) override {
        if (writer_)
            writer_->finish(t);
        writer_.reset();
    }

private:
    SQLite::Database& sql_;
    std::int64_t run_id_;
    store::LockSource source_;
    std::size_t wanted_;
    std::size_t next_ = 0;
    std::optional<store::LockTableWriter> writer_;
};

// Imported text does not say which machine produced it: every import shares this row, whose
// CPU count and line size are unknown.
store::MachineInfo unknown_machine() {
    return {.host = "unknown (imported)",
            .cpu_model = std::nullopt,
            .cpu_count = std::nullopt,
            .kernel = "unknown",
            .cacheline_size = std::nullopt};
}

struct ImportedRun {
    std::int64_t id = 0;
    std::string variant;
    const TableSummary* summary = nullptr;
};

void import_file(const ImportOptions& o, store::LockSource source) {
    const std::string text = read_input(o.file);
    const std::vector<TableSummary> tables = check_input(o.file, text, source);
    const std::string path = std::filesystem::absolute(o.file).lexically_normal().string();
    const std::string basename = std::filesystem::path(o.file).filename().string();

    store::Database db = store::Database::open(o.common.db);
    const std::int64_t machine_id = db.upsert_machine(unknown_machine(), "{}");
    std::vector<ImportedRun> imported;
    // All tables of the file, their runs included, or none of them.
    db.transaction([&] {
        for (std::size_t k = 0; k < tables.size(); ++k) {
            const locks::LockStatReport& table = tables[k].table;
            store::RunRecord run;
            run.machine_id = machine_id;
            run.workload = fmt::format("import:{}", store::to_string(source));
            run.variant = fmt::format("{}#{}", basename, k + 1);
            run.params_json =
                report::json_text(nlohmann::json{{"file", path},
                                                 {"table", k + 1},
                                                 {"tables", tables.size()},
                                                 {"format", locks::to_string(table.format)}},
                                  -1);
            run.source = store::Source::imported;
            run.threads.reset(); // the text does not say
            run.c2c_reason = "imported lock statistics hold no cacheline data";
            store::RunOutcome outcome;
            outcome.note = fmt::format("imported from {} (table {} of {}){}{}; machine and "
                                       "threads unknown",
                                       path, k + 1, tables.size(), table.caption ? ": " : "",
                                       table.caption.value_or(""));
            const std::int64_t id = db.insert_finished_run(
                run, outcome, [&](SQLite::Database& sql, std::int64_t run_id) {
                    TableWriterSink writer(sql, run_id, source, k);
                    parse_file(o.file, text, writer);
                });
            imported.push_back({id, run.variant, &tables[k]});
        }
    });

    if (o.common.json) {
        nlohmann::json runs = nlohmann::json::array();
        for (const auto& r : imported) {
            const locks::LockStatReport& t = r.summary->table;
            runs.push_back(
                {{"id", r.id},
                 {"variant", r.variant},
                 {"format", locks::to_string(t.format)},
                 {"version", t.version},
                 {"classes", r.summary->classes},
                 {"caption", t.caption ? nlohmann::json(*t.caption) : nlohmann::json()}});
        }
        fmt::print("{}\n", report::json_text(nlohmann::json{
                               {"file", path}, {"db", o.common.db}, {"runs", runs}}));
        return;
    }
    fmt::print("imported {} table{} from {} into {}\n", imported.size(),
               imported.size() == 1 ? "" : "s", report::escape_control(o.file),
               report::escape_control(o.common.db));
    for (const auto& r : imported) {
        const locks::LockStatReport& t = r.summary->table;
        const std::size_t classes = r.summary->classes;
        fmt::print("  run {}: {} ({}{}{}, {} class{}){}{}\n", r.id,
                   report::escape_control(r.variant), locks::to_string(t.format),
                   t.version.empty() ? "" : " ", t.version, classes, classes == 1 ? "" : "es",
                   t.caption ? "  " : "", report::escape_control(t.caption.value_or("")));
    }
}

void add_importer(CLI::App& import, const char* name, const char* description,
                  store::LockSource source) {
    auto o = std::make_shared<ImportOptions>();
    auto* cmd = import.add_subcommand(name, description);
    cmd->add_option("file", o->file, "Text file holding the output")->required();
    cmd->add_option("--db", o->common.db, "SQLite database")->capture_default_str();
    cmd->add_flag("--json", o->common.json, "Print JSON");
    cmd->callback([o, source] { import_file(*o, source); });
}

} // namespace

void add_import_command(CLI::App& app) {
    auto* import = app.add_subcommand(
        "import", "Import lock statistics captured elsewhere, one run per table in the file");
    import->require_subcommand(1);
    add_importer(*import, "lockstat",
                 "/proc/lock_stat text (versions 0.3 and 0.4, also pasted in mail)",
                 store::LockSource::lockstat);
    add_importer(*import, "perf-lock",
                 "perf lock contention (table or CSV) or perf lock report output",
                 store::LockSource::perf_lock);
}

} // namespace hitmap::cli
