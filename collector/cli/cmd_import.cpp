// `import lockstat|perf-lock FILE`: lock statistics captured elsewhere become runs of their own,
// one per table in the file, so they can be reported and compared like measured runs.
#include "collector/cli/commands.hpp"
#include "collector/locks/errors.hpp"
#include "collector/locks/lock_import.hpp"
#include "collector/store/lock_tables.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

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
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
        throw InputFileError(fmt::format("cannot read {}: {}", file, std::strerror(errno)));
    return text.str();
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

// Everything is checked here, before the database is opened, so a refused file changes nothing.
std::vector<locks::LockStatReport> parse_input(const std::string& file, store::LockSource wanted) {
    const std::string text = read_input(file);
    std::vector<locks::LockStatReport> reports;
    try {
        reports = locks::parse_lock_text(text);
    } catch (const locks::LockParseError& e) {
        throw LockImportError(fmt::format("{}:{}: {}", file, e.line(), e.reason()));
    } catch (const locks::UnsupportedLockFormat& e) {
        throw LockImportError(fmt::format("{}: {}", file, e.what()));
    }
    if (reports.empty())
        throw LockImportError(fmt::format("{}: no lock table found", file));
    const auto found = importer_of(reports.front().format);
    if (found != wanted)
        throw LockImportError(
            fmt::format("{} holds {} output, not {} (import it with `hitmap-collect import {}`)",
                        file, locks::to_string(reports.front().format), store::to_string(wanted),
                        found ? store::to_string(*found) : "?"));
    return reports;
}

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
    const locks::LockStatReport* report = nullptr;
};

void import_file(const ImportOptions& o, store::LockSource source) {
    const std::vector<locks::LockStatReport> reports = parse_input(o.file, source);
    const std::string path = std::filesystem::absolute(o.file).lexically_normal().string();
    const std::string basename = std::filesystem::path(o.file).filename().string();

    store::Database db = store::Database::open(o.common.db);
    const std::int64_t machine_id = db.upsert_machine(unknown_machine(), "{}");
    std::vector<ImportedRun> imported;
    // All tables of the file, their runs included, or none of them.
    db.transaction([&] {
        for (std::size_t k = 0; k < reports.size(); ++k) {
            const locks::LockStatReport& report = reports[k];
            store::RunRecord run;
            run.machine_id = machine_id;
            run.workload = fmt::format("import:{}", store::to_string(source));
            run.variant = fmt::format("{}#{}", basename, k + 1);
            run.params_json = nlohmann::json{{"file", path},
                                             {"table", k + 1},
                                             {"tables", reports.size()},
                                             {"format", locks::to_string(report.format)}}
                                  .dump();
            run.source = store::Source::imported;
            run.threads.reset(); // the text does not say
            run.c2c_reason = "imported lock statistics hold no cacheline data";
            store::RunOutcome outcome;
            outcome.note = fmt::format("imported from {} (table {} of {}){}{}; machine and threads "
                                       "unknown",
                                       path, k + 1, reports.size(), report.caption ? ": " : "",
                                       report.caption.value_or(""));
            const store::LockData data{source, report, {}};
            const std::int64_t id = db.insert_finished_run(
                run, outcome, [&](SQLite::Database& sql, std::int64_t run_id) {
                    store::write_lock_tables(sql, run_id, data);
                });
            imported.push_back({id, run.variant, &report});
        }
    });

    if (o.common.json) {
        nlohmann::json runs = nlohmann::json::array();
        for (const auto& r : imported)
            runs.push_back({{"id", r.id},
                            {"variant", r.variant},
                            {"format", locks::to_string(r.report->format)},
                            {"version", r.report->version},
                            {"classes", r.report->classes.size()},
                            {"caption", r.report->caption ? nlohmann::json(*r.report->caption)
                                                          : nlohmann::json()}});
        fmt::print("{}\n",
                   nlohmann::json{{"file", path}, {"db", o.common.db}, {"runs", runs}}.dump(2));
        return;
    }
    fmt::print("imported {} table{} from {} into {}\n", imported.size(),
               imported.size() == 1 ? "" : "s", o.file, o.common.db);
    for (const auto& r : imported) {
        const locks::LockStatReport& t = *r.report;
        fmt::print("  run {}: {} ({}{}{}, {} class{}){}{}\n", r.id, r.variant,
                   locks::to_string(t.format), t.version.empty() ? "" : " ", t.version,
                   t.classes.size(), t.classes.size() == 1 ? "" : "es", t.caption ? "  " : "",
                   t.caption.value_or(""));
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
