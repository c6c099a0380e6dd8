#pragma once
// One exception type per failure kind, each with a decoded one-line message, so callers can
// print e.what() as is and catch PerfError for "perf is not usable here".
#include <stdexcept>
#include <string>
#include <string_view>

namespace hitmap::perf {

class PerfError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The event, PMU or sampling facility does not exist on this machine (e.g. a VM without a vPMU).
class PerfUnsupported final : public PerfError {
public:
    using PerfError::PerfError;
};

// The kernel refused for lack of privilege (perf_event_paranoid, CAP_PERFMON).
class PerfPermissionDenied final : public PerfError {
public:
    using PerfError::PerfError;
};

// The kernel or a sysfs PMU description rejected the requested configuration.
class PerfInvalidConfig final : public PerfError {
public:
    using PerfError::PerfError;
};

// A ring-buffer record that cannot be parsed (truncated, overrun, unknown layout).
class PerfCorruptRecord final : public PerfError {
public:
    using PerfError::PerfError;
};

// Any other system-call failure (EMFILE, EBUSY, ESRCH, mmap, ioctl, read).
class PerfSystemError final : public PerfError {
public:
    using PerfError::PerfError;
};

// errno from perf_event_open and friends in words, e.g. "no such event on this PMU (...)".
std::string describe_errno(int error);

// Throws the exception type matching `error`, message "<what>: <describe_errno(error)>".
[[noreturn]] void throw_errno(std::string_view what, int error);

} // namespace hitmap::perf
