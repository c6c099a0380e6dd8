// `hitmap-collect import perf-c2c` of synthetic `perf c2c report --stdio` texts of 32 k, 64 k and
// 546 k rows (or the row counts given as arguments), measured in one run: seconds per 100 k rows
// that stay level across the sizes mean the import is linear. The command is timed as a user
// runs it (its own process, a new database each), so parsing, mapping and storing all count.
// HITMAP_COLLECT=PATH times another build of it, for a before/after comparison.
//
// A row is a table or Pareto row of the text. Each shared line has 8 Pareto rows, as a busy line
// of a real report has a few code addresses per offset: 546 k rows are 60,666 lines, under the
// 65,536 objects a run holds. `--pareto-rows N` gives each line N rows instead (1: as many lines
// as the rows allow, the shape in which the parser was quadratic).
#include "tests/perfc2c/c2c_text.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <spawn.h>
#include <string>
#include <string_view>
#include <sys/resource.h>
#include <sys/wait.h>
#include <vector>

extern char** environ;

namespace {

struct Measured {
    double seconds = 0;     // elapsed
    double cpu_seconds = 0; // user + system: what other jobs on a shared machine do not inflate
    long max_rss_kb = 0;
};

double seconds(const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
}

// Runs `collect` with `args`, its output discarded; exits the benchmark when it fails.
Measured run_import(const char* collect, const std::vector<std::string>& args) {
    std::vector<char*> argv{const_cast<char*>(collect)};
    for (const std::string& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (posix_spawn(&pid, collect, &actions, nullptr, argv.data(), environ) != 0) {
        fmt::print(stderr, "cannot start {}\n", collect);
        std::exit(1);
    }
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage); // the child's own peak, not the largest of all children
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fmt::print(stderr, "the import failed (status {:#x})\n", status);
        std::exit(1);
    }
    return {elapsed.count(), seconds(usage.ru_utime) + seconds(usage.ru_stime), usage.ru_maxrss};
}

} // namespace

int main(int argc, char** argv) {
    std::size_t pareto_rows = 8;
    std::vector<std::size_t> sizes;
    for (int i = 1; i < argc; ++i) {
        if (std::string_view(argv[i]) == "--pareto-rows" && i + 1 < argc)
            pareto_rows = std::stoul(argv[++i]);
        else
            sizes.push_back(std::stoul(argv[i]));
    }
    if (sizes.empty())
        sizes = {32'000, 64'000, 546'000};
    const char* const override = std::getenv("HITMAP_COLLECT");
    const char* const collect = override ? override : HITMAP_COLLECT;
    char pattern[] = "/tmp/hitmap-c2c-import-bench-XXXXXX";
    if (!mkdtemp(pattern)) {
        fmt::print(stderr, "cannot make a temporary directory\n");
        return 1;
    }
    const std::filesystem::path dir = pattern;
    fmt::print("{:>8}  {:>6}  {:>6}  {:>9}  {:>9}  {:>15}  {:>15}  {:>8}\n", "rows", "lines", "MB",
               "elapsed s", "CPU s", "elapsed s/100k", "CPU s/100k", "max RSS");
    for (const std::size_t rows : sizes) {
        const std::size_t lines = rows / (1 + pareto_rows);
        const std::filesystem::path report = dir / fmt::format("c2c-{}.txt", rows);
        const std::filesystem::path db = dir / fmt::format("c2c-{}.db", rows);
        {
            const std::string text = hitmap::testing::synthetic_report(lines, pareto_rows);
            std::ofstream(report, std::ios::binary)
                .write(text.data(), static_cast<std::streamsize>(text.size()));
        }
        const Measured m =
            run_import(collect, {"import", "perf-c2c", report.string(), "--db", db.string()});
        const double per_100k = static_cast<double>(rows) / 100'000.0;
        fmt::print("{:>8}  {:>6}  {:>6.1f}  {:>9.2f}  {:>9.2f}  {:>15.2f}  {:>15.2f}  {:>5} MB\n",
                   rows, lines, static_cast<double>(std::filesystem::file_size(report)) / 1e6,
                   m.seconds, m.cpu_seconds, m.seconds / per_100k, m.cpu_seconds / per_100k,
                   m.max_rss_kb / 1024);
        std::fflush(stdout);
        std::filesystem::remove(report);
        std::filesystem::remove(db);
    }
    std::filesystem::remove_all(dir);
    return 0;
}
