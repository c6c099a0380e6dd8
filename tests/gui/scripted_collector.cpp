// The collector's side of the app's protocol, scripted, for the GUI tests (issue 37: the GUI
// tests spawn no collector). A live run holds what the VM's scheduling gave it and takes as
// long as the machine is busy; what the window and its dialogs are tested for is what they
// pass to the collector and how they follow its answers, so this plays those answers:
//
//   list --json, doctor --json   the real collector's output, committed in tests/data/collector
//   run … --duration D           a run stored as the collector stores one (begun, then complete);
//                                with D of 10 s or more it waits for SIGTERM and is stored as
//                                cancelled, as a cancelled run is
//   import lockstat|perf-lock F  one imported run when F starts as lock_stat does, else the
//                                collector's kind of one-line error and exit status 1
//
// Every invocation's arguments are appended, one line each, to $HITMAP_SCRIPTED_LOG when set.
#include "collector/run/progress.hpp"
#include "collector/store/database.hpp"
#include "collector/store/machine_info.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace hitmap;

std::string file_text(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

int fail(const std::string& message) {
    std::cerr << "hitmap-collect: error: " << message << '\n';
    return 1;
}

// "--name value" pairs after the command's positional arguments.
struct Command {
    std::vector<std::string> words;
    std::map<std::string, std::string> options;
};

Command parse(int argc, char** argv) {
    Command c;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--json") {
            c.options[a] = "";
        } else if (a.starts_with("--") && i + 1 < argc) {
            c.options[a] = argv[++i];
        } else {
            c.words.push_back(a);
        }
    }
    return c;
}

int run(const Command& c) {
    store::Database db = store::Database::open(c.options.at("--db"));
    const std::string workload = c.words.size() > 1 ? c.words[1] : "";
    const std::string variant = c.options.contains("--variant") ? c.options.at("--variant") : "";
    collector::Progress progress(collector::ProgressStyle::json);
    progress.begin(0, 1, workload + " " + variant);
    const std::string duration = c.options.contains("--duration") ? c.options.at("--duration") : "";
    // Wait for the cancel only once the run is stored: the test waits for the row.
    sigset_t term;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    sigprocmask(SIG_BLOCK, &term, nullptr);
    store::RunRecord record;
    record.machine_id = db.upsert_machine(store::detect_machine(), "{}");
    record.workload = workload;
    record.variant = variant;
    record.c2c_reason = "a scripted run has no cacheline data";
    const std::int64_t id = db.begin_run(record);
    progress.update(0.5, "running");
    store::RunOutcome outcome;
    if (duration.ends_with("s") && !duration.ends_with("ms") && std::stoi(duration) >= 10) {
        int signal = 0;
        sigwait(&term, &signal);
        outcome.status = store::RunStatus::cancelled;
        outcome.note = "cancelled by a signal";
        db.finish_run(id, outcome);
        progress.end(false, "cancelled");
        return 128 + SIGTERM;
    }
    outcome.ops = 1000;
    outcome.duration_s = 0.2;
    outcome.ops_per_s = 5000;
    db.finish_run(id, outcome);
    progress.end(true, "scripted");
    return 0;
}

int import(const Command& c) {
    if (c.words.size() < 3)
        return fail("import needs a format and a file");
    const std::string& file = c.words[2];
    if (!file_text(file).starts_with("lock_stat version"))
        return fail(file + ": not lock_stat output (the scripted collector reads no other)");
    store::Database db = store::Database::open(c.options.at("--db"));
    store::RunRecord run;
    run.machine_id = db.upsert_machine(store::imported_machine(), "{}");
    run.workload = "import:" + c.words[1];
    run.variant = file;
    run.source = store::Source::imported;
    db.insert_finished_run(run, {});
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (const char* log = std::getenv("HITMAP_SCRIPTED_LOG")) {
        std::ofstream out(log, std::ios::app);
        for (int i = 1; i < argc; ++i)
            out << (i > 1 ? " " : "") << argv[i];
        out << '\n';
    }
    const Command c = parse(argc, argv);
    try {
        const std::string command = c.words.empty() ? "" : c.words.front();
        if ((command == "list" || command == "doctor") && c.options.contains("--json")) {
            std::cout << file_text(HITMAP_TEST_DATA "/collector/" + command + ".json");
            return 0;
        }
        if (command == "run")
            return run(c);
        if (command == "import")
            return import(c);
        return fail("the scripted collector does not play '" + command + "'");
    } catch (const std::exception& e) {
        return fail(e.what());
    }
}
