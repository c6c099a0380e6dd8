#include "collector/perf/errors.hpp"

#include "collector/perf/pmu_capabilities.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>

namespace hitmap::perf {

namespace {

std::string errno_name(int error) {
    const char* name = ::strerrorname_np(error);
    return name ? name : fmt::format("errno {}", error);
}

std::string paranoid_words() {
    const auto level = perf_event_paranoid();
    return level ? fmt::format("kernel.perf_event_paranoid = {}", *level)
                 : std::string("kernel.perf_event_paranoid unreadable");
}

} // namespace

std::string describe_errno(int error) {
    switch (error) {
    case EACCES:
    case EPERM:
        return fmt::format("permission denied ({}; {}: lower it or grant CAP_PERFMON)",
                           errno_name(error), paranoid_words());
    case ENOENT:
    case EOPNOTSUPP:
    case ENODEV:
        return fmt::format("no such event on this PMU ({}; typical in a VM without a virtual PMU)",
                           errno_name(error));
    case EINVAL:
        return "invalid perf_event_attr for this kernel or PMU (EINVAL)";
    default:
        return fmt::format("{} ({})", std::strerror(error), errno_name(error));
    }
}

void throw_errno(std::string_view what, int error) {
    const std::string message = fmt::format("{}: {}", what, describe_errno(error));
    switch (error) {
    case EACCES:
    case EPERM:
        throw PerfPermissionDenied(message);
    case ENOENT:
    case EOPNOTSUPP:
    case ENODEV:
        throw PerfUnsupported(message);
    case EINVAL:
        throw PerfInvalidConfig(message);
    default:
        throw PerfSystemError(message);
    }
}

} // namespace hitmap::perf
