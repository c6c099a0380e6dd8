#pragma once
// What this machine's perf says to `perf c2c record -- true`, run as the collector runs it: the
// tests of `run --c2c perf` and `record` compare the collector's refusal with perf's own words.
#include "tests/cli/cli_test_support.hpp"

#include <fmt/format.h>
#include <optional>
#include <string>

namespace hitmap::testing {

struct PerfC2cHere {
    std::optional<std::string> skip; // why there is no refusal to compare with
    int status = 0;                  // perf's exit status
    std::string said;                // its stderr
};

inline PerfC2cHere perf_c2c_here(const TempDir& tmp) {
    const std::string probe = fmt::format("perf c2c record -o {} -- true >/dev/null 2>{}",
                                          shell_quote((tmp / "probe.data").string()),
                                          shell_quote((tmp / "probe.err").string()));
    const int raw = std::system(probe.c_str());
    PerfC2cHere here;
    if (!WIFEXITED(raw))
        here.skip = "perf c2c record was killed";
    else if ((here.status = WEXITSTATUS(raw)) == 127)
        here.skip = "perf is not installed here";
    else if (here.status == 0)
        here.skip = "perf c2c record works here: nothing is refused";
    here.said = read_file(tmp / "probe.err");
    return here;
}

} // namespace hitmap::testing
