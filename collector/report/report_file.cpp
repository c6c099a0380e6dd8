#include "collector/report/report_file.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

namespace hitmap::report {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, int error) {
    throw ReportWriteError(fmt::format("cannot write {}: {}", path.string(), std::strerror(error)));
}

} // namespace

void write_report_file(const std::filesystem::path& path, std::string_view content) {
    const std::filesystem::path partial = path.string() + ".partial";
    const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        fail(path, errno);
    std::size_t done = 0;
    int error = 0;
    while (done < content.size() && !error) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n > 0)
            done += static_cast<std::size_t>(n);
        else if (n == 0)
            error = EIO;
        else if (errno != EINTR)
            error = errno;
    }
    // ENOSPC may only show at fsync or close on some file systems.
    if (!error && ::fsync(fd) != 0)
        error = errno;
    if (::close(fd) != 0 && !error)
        error = errno;
    if (!error && ::rename(partial.c_str(), path.c_str()) != 0)
        error = errno;
    if (error) {
        ::unlink(partial.c_str());
        fail(path, error);
    }
}

} // namespace hitmap::report
