#include "collector/perf/perf_syscall.hpp"

#include "collector/perf/errors.hpp"

#include <cerrno>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace hitmap::perf {

OpenResult open_event(const perf_event_attr& attr, pid_t pid, int cpu, int group_fd) {
    const long fd = ::syscall(SYS_perf_event_open, &attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0)
        return OpenResult{support::UniqueFd(), errno};
    return OpenResult{support::UniqueFd(static_cast<int>(fd)), 0};
}

std::uint64_t event_id(int fd) {
    std::uint64_t id = 0;
    if (::ioctl(fd, PERF_EVENT_IOC_ID, &id) != 0)
        throw_errno("PERF_EVENT_IOC_ID", errno);
    return id;
}

void event_ioctl(int fd, unsigned long request, unsigned long arg, std::string_view what) {
    if (::ioctl(fd, request, arg) != 0)
        throw_errno(what, errno);
}

} // namespace hitmap::perf
