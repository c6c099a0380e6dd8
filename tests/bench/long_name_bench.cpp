// The desktop app on a run whose variant is a megabyte long (a plugin may register one), against
// the same database with a 10-byte variant: `hitmap --screenshot` and `hitmap export` (HTML,
// PDF) as a user runs them, each the median wall time of its repetitions and its peak resident
// memory (the child's own, from wait4), and the ratio of the two names. Goal: under 2 s and
// 200 MB at a megabyte. The databases are tests/data/small.db copied to a temporary folder with
// run 1's variant replaced.
// Usage: long_name_bench [repetitions] (default 3)
#include <SQLiteCpp/SQLiteCpp.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <spawn.h>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;

struct Measure {
    double seconds = 0;
    double peak_mb = 0;
};

// Runs `args` (args[0] the program) to its end; throws unless it exits 0.
Measure run(const std::vector<std::string>& args) {
    std::vector<char*> argv;
    for (const std::string& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    // Its output is the pictures and reports, not the benchmark's.
    posix_spawn_file_actions_t quiet;
    posix_spawn_file_actions_init(&quiet);
    posix_spawn_file_actions_addopen(&quiet, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], &quiet, nullptr, argv.data(), environ) != 0)
        throw std::runtime_error("cannot start " + args[0]);
    posix_spawn_file_actions_destroy(&quiet);
    int status = 0;
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error(args[0] + " " + args[1] + " failed");
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
    return {wall.count(), usage.ru_maxrss / 1024.0}; // ru_maxrss is in KiB on Linux
}

// The median time and the largest peak of `reps` runs.
Measure measure(const std::vector<std::string>& args, int reps) {
    std::vector<double> seconds;
    Measure worst;
    for (int i = 0; i < reps; ++i) {
        const Measure m = run(args);
        seconds.push_back(m.seconds);
        worst.peak_mb = std::max(worst.peak_mb, m.peak_mb);
    }
    std::sort(seconds.begin(), seconds.end());
    worst.seconds = seconds[seconds.size() / 2];
    return worst;
}

fs::path database(const fs::path& dir, std::size_t variant_bytes) {
    const fs::path db = dir / ("variant-" + std::to_string(variant_bytes) + ".db");
    fs::copy_file(HITMAP_TEST_DATA "/small.db", db);
    SQLite::Database sql(db.string(), SQLite::OPEN_READWRITE);
    SQLite::Statement rename(sql, "UPDATE run SET variant = ? WHERE id = 1");
    rename.bind(1, std::string(variant_bytes, 'x'));
    rename.exec();
    return db;
}

} // namespace

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    std::string pattern = (fs::temp_directory_path() / "long_name_bench.XXXXXX").string();
    if (!mkdtemp(pattern.data())) {
        std::perror("long_name_bench: mkdtemp");
        return 1;
    }
    const fs::path dir = pattern;
    const std::string app = HITMAP_APP_PATH;
    try {
        const fs::path short_db = database(dir, 10), long_db = database(dir, 1 << 20);
        struct Command {
            const char* name;
            std::vector<std::string> (*args)(const std::string& app, const fs::path& db,
                                             const fs::path& out);
        };
        const Command commands[] = {
            {"hitmap --screenshot",
             [](const std::string& a, const fs::path& db, const fs::path& out) {
                 return std::vector<std::string>{a, "--screenshot", out.string(), db.string()};
             }},
            {"hitmap export (html)",
             [](const std::string& a, const fs::path& db, const fs::path& out) {
                 return std::vector<std::string>{
                     a,        "export", "--db", db.string(),
                     "--runs", "1,2",    "-o",   out.string() + ".html"};
             }},
            {"hitmap export --format pdf",
             [](const std::string& a, const fs::path& db, const fs::path& out) {
                 return std::vector<std::string>{
                     a,     "export",   "--db", db.string(), "--runs",
                     "1,2", "--format", "pdf",  "-o",        out.string() + ".pdf"};
             }},
        };
        std::printf("%-28s %20s %20s %14s\n", "", "10-byte variant", "1 MiB variant",
                    "1 MiB / 10 B");
        bool met = true;
        for (const Command& c : commands) {
            const Measure s = measure(c.args(app, short_db, dir / "short"), reps);
            const Measure l = measure(c.args(app, long_db, dir / "long"), reps);
            std::printf("%-28s %8.2f s %7.0f MB %8.2f s %7.0f MB %6.2fx %6.2fx\n", c.name,
                        s.seconds, s.peak_mb, l.seconds, l.peak_mb, l.seconds / s.seconds,
                        l.peak_mb / s.peak_mb);
            met = met && l.seconds < 2 && l.peak_mb < 200;
        }
        std::printf("(median of %d runs each, peak resident memory of the largest; goal at 1 MiB: "
                    "under 2 s and 200 MB: %s)\n",
                    reps, met ? "met" : "NOT met");
        fs::remove_all(dir);
        return met ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "long_name_bench: %s\n", e.what());
        fs::remove_all(dir);
        return 1;
    }
}
