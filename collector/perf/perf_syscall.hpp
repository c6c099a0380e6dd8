#pragma once
// The raw perf_event_open(2) surface; everything else in this folder goes through it.
#include "collector/support/unique_fd.hpp"

#include <cstdint>
#include <linux/perf_event.h>
#include <string_view>
#include <sys/types.h>

namespace hitmap::perf {

// A perf event fd, or the errno explaining why the kernel refused it: callers decide whether
// a refusal is fatal or just makes one counter unavailable.
struct OpenResult {
    support::UniqueFd fd;
    int error = 0;
};

// pid 0 = calling thread, cpu -1 = any CPU, group_fd -1 = new group. The fd is close-on-exec.
OpenResult open_event(const perf_event_attr& attr, pid_t pid, int cpu, int group_fd);

// The kernel's id of the event, as reported by PERF_FORMAT_ID reads.
std::uint64_t event_id(int fd);

// ioctl on a perf event fd; throws (see errors.hpp) naming `what` when it fails.
void event_ioctl(int fd, unsigned long request, unsigned long arg, std::string_view what);

} // namespace hitmap::perf
