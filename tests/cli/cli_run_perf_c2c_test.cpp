// `run --c2c perf` as a user runs it on this machine. Where perf c2c record cannot record
// memory events (VMs without a vPMU, this project's CI) the run refuses with perf's own reason,
// on one line, before a database exists; where it can, there is nothing to refuse and the test
// says so. A perf missing from PATH is refused by name.
#include "tests/cli/cli_test_support.hpp"
#include "tests/cli/perf_here.hpp"

#include <cstdlib>
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <optional>
#include <string>

namespace hitmap::testing {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::vector<std::string> perf_run(const TempDir& tmp) {
    return {"run",          "page-counter-charge",
            "--variant",    "v6.0",
            "--threads",    "1",
            "--iterations", "1000",
            "--c2c",        "perf",
            "--db",         (tmp / "perf.db").string()};
}

TEST(CliRunPerfC2c, RefusesWithPerfsReasonBeforeADatabaseExists) {
    TempDir tmp;
    const PerfC2cHere here = perf_c2c_here(tmp);
    if (here.skip)
        GTEST_SKIP() << *here.skip;
    const int status = here.status;
    const std::string& said = here.said;

    const CliResult r = run_cli(perf_run(tmp), tmp.path());
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_THAT(r.err, StartsWith("hitmap-collect: error: --c2c perf: perf c2c record failed: "));
    EXPECT_THAT(r.err, EndsWith(fmt::format(" (exit {})\n", status)));
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    // On a VM perf says "failed: memory events not supported": the run says the same.
    if (said.starts_with("failed: ")) {
        EXPECT_THAT(r.err, HasSubstr(said.substr(8, said.find('\n') - 8)));
    }
    EXPECT_FALSE(std::filesystem::exists(tmp / "perf.db"));
}

TEST(CliRunPerfC2c, PerfMissingFromPathIsRefusedByName) {
    TempDir tmp;
    const std::optional<std::string> path =
        std::getenv("PATH") ? std::optional<std::string>(std::getenv("PATH")) : std::nullopt;
    ::setenv("PATH", tmp.path().c_str(), 1); // an empty folder: no perf in it
    const CliResult r = run_cli(perf_run(tmp), tmp.path());
    if (path)
        ::setenv("PATH", path->c_str(), 1);
    else
        ::unsetenv("PATH");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "hitmap-collect: error: --c2c perf: perf not found in PATH (Debian: apt-get "
                     "install linux-perf)\n");
    EXPECT_FALSE(std::filesystem::exists(tmp / "perf.db"));
}

} // namespace
} // namespace hitmap::testing
