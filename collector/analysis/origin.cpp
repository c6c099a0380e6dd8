#include "collector/analysis/origin.hpp"

#include "collector/store/machine_info.hpp"
#include "collector/store/timestamp.hpp"
#include "collector/support/build_info.hpp"

namespace hitmap::analysis {

ReportOrigin this_origin() {
    const store::MachineInfo machine = store::detect_machine();
    return {store::utc_now(), machine.host, machine.kernel, support::version_text("hitmap")};
}

} // namespace hitmap::analysis
