#pragma once
// Runs hitmap-collect as a user would and captures its exit status, stdout and stderr.
#include "tests/support/read_file.hpp"
#include "tests/support/shared_dir.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace hitmap::testing {

struct CliResult {
    int status = -1;
    std::string out;
    std::string err;
};

inline std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// A fresh directory per test, removed at the end.
class TempDir {
public:
    TempDir() {
        std::random_device rd;
        path_ = std::filesystem::temp_directory_path() / ("hitmap-cli-" + std::to_string(rd()));
        std::filesystem::create_directories(path_);
    }
    ~TempDir() { std::filesystem::remove_all(path_); }
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

// `argv` run through the shell with its output captured in `scratch`.
inline CliResult run_command(const std::vector<std::string>& argv,
                             const std::filesystem::path& scratch) {
    std::string cmd;
    for (const auto& a : argv)
        cmd += (cmd.empty() ? "" : " ") + shell_quote(a);
    const auto out = scratch / "stdout.txt";
    const auto err = scratch / "stderr.txt";
    cmd += " >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string()) + " </dev/null";
    const int raw = std::system(cmd.c_str());
    CliResult r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.out = read_file(out);
    r.err = read_file(err);
    return r;
}

inline std::string hitmap_collect() {
    return (bin_dir() / "hitmap-collect").string();
}

inline CliResult run_cli(const std::vector<std::string>& args,
                         const std::filesystem::path& scratch) {
    std::vector<std::string> argv{hitmap_collect()};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_command(argv, scratch);
}

// One small v6.0 run on one thread: a database with something in it to read or to protect.
inline CliResult seed_run(const std::string& db, const std::filesystem::path& scratch,
                          const std::string& iterations,
                          const std::vector<std::string>& extra = {"--c2c", "off"}) {
    std::vector<std::string> args{"run", "page-counter-charge", "--variant", "v6.0", "--threads",
                                  "1",   "--iterations",        iterations,  "--db", db};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args, scratch);
}

// The database's runs as `show --json` prints them.
inline nlohmann::json show_json(const std::string& db, const TempDir& dir) {
    const CliResult r = run_cli({"show", "--json", "--db", db}, dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

inline int count_lines(const std::string& s) {
    int n = 0;
    for (char c : s)
        n += c == '\n';
    return n;
}

} // namespace hitmap::testing
