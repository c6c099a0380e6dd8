#include "collector/report/report_origin.hpp"

#include "collector/report/output_text.hpp"
#include "collector/store/machine_info.hpp"
#include "collector/store/timestamp.hpp"
#include "collector/support/build_info.hpp"

#include <fmt/format.h>

namespace hitmap::report {

std::string origin_sentence(const analysis::ReportOrigin& origin) {
    return fmt::format("Made {} on host {}, kernel {}, by {}.", origin.made,
                       escape_control(origin.host), escape_control(origin.kernel), origin.hitmap);
}

} // namespace hitmap::report
