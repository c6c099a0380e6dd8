#include "collector/support/build_info.hpp"

#include "hitmap_build_version.hpp" // generated at every build: the commit moves

#include <fmt/format.h>

namespace hitmap::support {

const BuildInfo& build_info() {
    static const BuildInfo info{HITMAP_VERSION, HITMAP_GIT_COMMIT, HITMAP_BUILD_TYPE};
    return info;
}

std::string version_text(std::string_view program) {
    const BuildInfo& b = build_info();
    return b.commit.empty() ? fmt::format("{} {}", program, b.version)
                            : fmt::format("{} {} (commit {})", program, b.version, b.commit);
}

} // namespace hitmap::support
