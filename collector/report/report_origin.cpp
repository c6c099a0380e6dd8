#include "collector/report/report_origin.hpp"

#include "collector/report/output_text.hpp"
#include "collector/store/machine.hpp"
#include "collector/store/timestamp.hpp"
#include "collector/support/build_info.hpp"

#include <fmt/format.h>

namespace hitmap::report {

ReportOrigin this_origin() {
    const store::MachineInfo machine = store::detect_machine();
    return {store::utc_now(), machine.host, machine.kernel, support::version_text("hitmap")};
}

std::string origin_sentence(const ReportOrigin& origin) {
    return fmt::format("Made {} on host {}, kernel {}, by {}.", origin.made,
                       escape_control(origin.host), escape_control(origin.kernel), origin.hitmap);
}

} // namespace hitmap::report
