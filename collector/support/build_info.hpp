#pragma once
// Which hitmap made something: its version (CMake's project VERSION, the one version source),
// the commit the sources were at when built ("" outside a git checkout) and the compiler and
// build type. `--version`, Help → About and every report's header say it from here.
#include <string>
#include <string_view>

namespace hitmap::support {

struct BuildInfo {
    std::string_view version; // "0.1.0"
    std::string_view commit;  // "7cc2407abcd1", or "" when not built from a git checkout
    std::string_view build;   // "GNU 12.2.0, RelWithDebInfo"
};

const BuildInfo& build_info();

// "hitmap 0.1.0 (commit 7cc2407abcd1)", the program's name first.
std::string version_text(std::string_view program);

} // namespace hitmap::support
