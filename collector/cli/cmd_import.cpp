// `import lockstat|perf-lock FILE`: lock statistics captured elsewhere become runs of their own,
// one per table in the file, so they can be reported and compared like measured runs.
// `import perf-c2c FILE`: a perf c2c report becomes one run whose cacheline tables hold its
// shared lines.
#include "collector/cli/cli_options.hpp"
#include "collector/cli/commands.hpp"
#include "collector/locks/errors.hpp"
#include "collector/locks/lock_import.hpp"
#include "collector/locks/text_scan.hpp"
#include "collector/perfc2c/errors.hpp"
#include "collector/perfc2c/imported_run.hpp"
#include "collector/perfc2c/report_parser.hpp"
#include "collector/perfc2c/stored_import.hpp"
#include "collector/report/output_text.hpp"
#include "collector/report/unknown.hpp"
#include "collector/run/placed_objects.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/lock_tables.hpp"
#include "collector/store/run_writer.hpp"

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

// The file holds more than an import reads.
class InputTooLarge : public std::runtime_error {
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

// The most an import reads, which bounds its memory: importing a perf c2c report peaks at about
// 26 bytes per byte of text (each Pareto row becomes a dozen metrics), 3.0 GB for the 120 MB,
// 546,000-row report of tests/bench/c2c_import_bench (docs/BENCHMARKS.md). The texts the
// importers are made for are smaller: perf prints more than 2,000 c2c lines only with
// --show-all, a 600,000-row perf lock table is 59 MB and /proc/lock_stat a few MB.
constexpr std::uintmax_t kMaxInputBytes = std::uintmax_t{128} << 20;

InputTooLarge input_too_large(const std::string& file) {
    return InputTooLarge(fmt::format("cannot import {}: it holds more than the {} MiB an import "
                                     "reads",
                                     file, kMaxInputBytes >> 20));
}

std::string read_input(const std::string& file) {
    if (std::filesystem::is_directory(file))
        throw InputFileError(fmt::format("cannot read {}: it is a directory", file));
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw InputFileError(fmt::format("cannot read {}: {}", file, std::strerror(errno)));
    // Read straight into one string of the file's size: a stringstream would hold it twice. A
    // regular file too large is refused by its size, before a byte is read; a pipe, a character
    // device (/dev/zero never ends) or a /proc file (its size says 0) as soon as the reading
    // passes the limit.
    std::string text;
    std::error_code size_unknown;
    if (std::filesystem::is_regular_file(file, size_unknown)) {
        const std::uintmax_t size = std::filesystem::file_size(file, size_unknown);
        if (!size_unknown && size > kMaxInputBytes)
            throw input_too_large(file);
        if (!size_unknown)
            text.reserve(size);
    }
    std::array<char, 1 << 16> chunk;
    while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0) {
        const auto got = static_cast<std::size_t>(in.gcount());
        if (text.size() + got > kMaxInputBytes)
            throw input_too_large(file);
        text.append(chunk.data(), got);
    }
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
    TableWriterSink(store::RunWriter& run, store::LockSource source, std::size_t wanted)
        : run_(run)
        , source_(source)
        , wanted_(wanted) {}

    void begin_table(const locks::LockStatReport& t) override {
        if (next_++ == wanted_)
            writer_.emplace(run_.begin_lock_table(source_, t));
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
    store::RunWriter& run_;
    store::LockSource source_;
    std::size_t wanted_;
    std::size_t next_ = 0;
    std::optional<store::LockTableWriter> writer_;
};

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
    const std::int64_t machine_id = db.upsert_machine(store::imported_machine(), "{}");
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
            const std::int64_t id =
                db.insert_finished_run(run, outcome, [&](store::RunWriter& writer) {
                    TableWriterSink sink(writer, source, k);
                    parse_file(o.file, text, sink);
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

// The perf c2c text is refused as a whole: not a report, a bad line ("FILE:LINE: reason"), or
// not UTF-8.
class C2cImportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct C2cImportOptions {
    std::string file;
    std::vector<std::string> layouts; // STRUCT=NAME|FILE.json, paired with bases in order
    std::vector<std::string> bases;
    std::vector<std::string> objects; // STRUCT@ADDR[:LAYOUT]
    std::optional<std::filesystem::path> kallsyms;
    CommonOptions common;
};

// `--layout STRUCT=L --base ADDR` is `--object STRUCT@ADDR:L`; the objects come after them.
std::vector<perfc2c::PlacedLayout> placed_layouts(const C2cImportOptions& o,
                                                  const perfc2c::C2cReport& report) {
    if (o.layouts.size() != o.bases.size())
        throw UsageError(fmt::format("--layout and --base go in pairs ({} --layout, {} --base)",
                                     o.layouts.size(), o.bases.size()));
    std::vector<std::string> objects;
    for (std::size_t i = 0; i < o.layouts.size(); ++i) {
        const std::size_t eq = o.layouts[i].find('=');
        if (eq == std::string::npos)
            throw UsageError(
                fmt::format("layout '{}' is not STRUCT=NAME|FILE.json|btf[:FILE]", o.layouts[i]));
        if (!o.bases[i].starts_with("0x") || !locks::parse_hex(o.bases[i]))
            throw UsageError(fmt::format("--base '{}' is not a hex address (0x...)", o.bases[i]));
        objects.push_back(fmt::format("{}@{}:{}", o.layouts[i].substr(0, eq), o.bases[i],
                                      o.layouts[i].substr(eq + 1)));
    }
    objects.insert(objects.end(), o.objects.begin(), o.objects.end());
    std::vector<std::uint64_t> addresses; // every data address the Pareto rows name
    for (const perfc2c::ParetoLine& p : report.pareto)
        for (const perfc2c::ParetoRow& r : p.rows)
            addresses.push_back(p.address + r.offset);
    const collector::SymbolSource symbols{o.kallsyms,
                                          "a perf c2c report does not say which machine it "
                                          "came from: give the capturing machine's kallsyms "
                                          "with --kallsyms FILE, or the address (STRUCT@0x...)"};
    return collector::place_objects(objects, symbols, addresses);
}

perfc2c::C2cReport parse_c2c_file(const std::string& file, std::string_view text) {
    try {
        return perfc2c::parse_c2c_report(text);
    } catch (const perfc2c::C2cParseError& e) {
        throw C2cImportError(fmt::format("{}:{}: {}", file, e.line(), e.reason()));
    } catch (const perfc2c::NotAC2cReport& e) {
        throw C2cImportError(fmt::format("{}: {}", file, e.what()));
    } catch (const perfc2c::C2cTextEncodingError& e) {
        throw C2cImportError(fmt::format("{} {}", file, e.what()));
    }
}

void import_perf_c2c(const C2cImportOptions& o) {
    // The text is freed once parsed, and the mapping's metrics and code moved into the run, not
    // copied: they are most of an import's memory (a metric per figure of each Pareto row).
    const perfc2c::C2cReport parsed = parse_c2c_file(o.file, read_input(o.file));
    const std::vector<perfc2c::PlacedLayout> placed = placed_layouts(o, parsed);
    // Everything is checked and mapped before the database is opened: a refusal stores nothing.
    perfc2c::ImportedC2c imported = perfc2c::import_report(parsed, placed);
    const auto shared_lines = parsed.shared_stat("Total Shared Cache Lines");
    std::uint64_t shown_hitm = 0;
    for (const auto& l : parsed.lines)
        shown_hitm += l.hitm();
    store::Database db = store::Database::open(o.common.db);
    const perfc2c::StoredC2cImport stored =
        perfc2c::store_c2c_import(db, o.file, parsed, placed, imported);
    const std::int64_t id = stored.run_id;
    const std::string& what = stored.what;
    const std::string& path = stored.path;

    for (const perfc2c::Note& n : imported.notes)
        fmt::print(stderr, "hitmap-collect: note: {}{}: {}\n", report::escape_control(o.file),
                   n.line ? fmt::format(":{}", n.line) : "", n.text);
    if (o.common.json) {
        nlohmann::json notes = nlohmann::json::array();
        for (const perfc2c::Note& n : imported.notes)
            notes.push_back(
                {{"line", n.line ? nlohmann::json(n.line) : nlohmann::json()}, {"text", n.text}});
        const nlohmann::json r{{"id", id},
                               {"variant", stored.variant},
                               {"format", "perf-c2c"},
                               {"layout", perfc2c::to_string(parsed.layout)},
                               {"vendor", perfc2c::to_string(parsed.vendor)},
                               {"peer_mode", parsed.peer_mode},
                               {"stats_only", parsed.stats_only},
                               {"shared_lines", report::json_or_null(shared_lines)},
                               {"lines_shown", parsed.lines.size()},
                               {"hitm", parsed.total_hitm()},
                               {"hitm_shown", shown_hitm},
                               {"notes", notes}};
        fmt::print("{}\n", report::json_text(
                               nlohmann::json{{"file", path}, {"db", o.common.db}, {"runs", {r}}}));
        return;
    }
    fmt::print("imported run {}: {}, {} shared lines, HITM {}", id, what,
               report::text_or_unknown(shared_lines, "{}"), parsed.total_hitm());
    if (!parsed.stats_only && parsed.lines.size() != shared_lines.value_or(0))
        fmt::print(" ({} lines shown, {} HITM on lines perf did not show)", parsed.lines.size(),
                   parsed.total_hitm() - std::min(parsed.total_hitm(), shown_hitm));
    fmt::print("\n");
}

void add_perf_c2c_importer(CLI::App& import) {
    auto o = std::make_shared<C2cImportOptions>();
    auto* cmd = import.add_subcommand(
        "perf-c2c", "perf c2c report --stdio (2016, ~2020 and current layouts; Intel, AMD, Arm "
                    "SPE peer mode) or --stats output");
    cmd->add_option("file", o->file, "Text file holding the report")->required();
    cmd->add_option("--layout", o->layouts,
                    "STRUCT=NAME|FILE.json|btf[:FILE]: name the fields of the lines the struct "
                    "covers (with --base; repeatable)");
    cmd->add_option("--base", o->bases,
                    "Data address (0x...) of the --layout struct at the same "
                    "position");
    cmd->add_option("--object", o->objects,
                    "STRUCT@ADDR[:LAYOUT] or STRUCT@SYMBOL[:LAYOUT]: an object of any struct of "
                    "any BTF at a data address; the lines it covers carry its name and field "
                    "names. LAYOUT as --layout takes it, btf:FILE for a module's, a raw BTF or "
                    "an ELF with .BTF (a -g program after `pahole -J`); default: the running "
                    "kernel's BTF (repeatable)");
    cmd->add_option("--kallsyms", o->kallsyms,
                    "The capturing machine's /proc/kallsyms (read as root), where --object "
                    "SYMBOL addresses are looked up");
    cmd->add_option("--db", o->common.db, "SQLite database")->capture_default_str();
    cmd->add_flag("--json", o->common.json, "Print JSON");
    cmd->callback([o] { import_perf_c2c(*o); });
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
        "import", "Import lock statistics (one run per table in the file) or a perf c2c report "
                  "captured elsewhere");
    import->require_subcommand(1);
    add_importer(*import, "lockstat",
                 "/proc/lock_stat text (versions 0.3 and 0.4, also pasted in mail)",
                 store::LockSource::lockstat);
    add_importer(*import, "perf-lock",
                 "perf lock contention (table or CSV) or perf lock report output",
                 store::LockSource::perf_lock);
    add_perf_c2c_importer(*import);
}

} // namespace hitmap::cli
