#include "collector/report/report_file.hpp"

#include <cerrno>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hitmap::report {

namespace {

// Writes into what is there (a FIFO or a device), as the shell's `>` does.
void write_into(const std::filesystem::path& path, std::string_view content) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        support::throw_write_error(path, errno);
    int error = support::write_all(fd, content);
    if (::close(fd) != 0 && !error)
        error = errno;
    if (error)
        support::throw_write_error(path, error);
}

void replace(const std::filesystem::path& path, std::string_view content) {
    support::ReplacingFile file(path);
    file.write(content);
    file.commit();
}

std::string_view kind_of(mode_t mode) {
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "neither a file nor a device";
}

} // namespace

void write_report_file(const std::filesystem::path& path, std::string_view content) {
    if (path == "-") {
        if (const int error = support::write_all(STDOUT_FILENO, content))
            support::throw_write_error("standard output", error);
        return;
    }
    struct stat target {};
    if (::stat(path.c_str(), &target) != 0) {
        const int error = errno;
        if (error != ENOENT)
            support::throw_write_error(path, error);
        // A link to nothing: renaming over it would replace the link, not write its target.
        if (struct stat link{}; ::lstat(path.c_str(), &link) == 0)
            throw support::FileWriteError(
                fmt::format("cannot write {}: it is a symbolic link to a file that does not exist",
                            path.string()));
        return replace(path, content);
    }
    if (S_ISREG(target.st_mode)) {
        std::error_code ec;
        // The link's target is replaced; the link stays.
        const std::filesystem::path real = std::filesystem::canonical(path, ec);
        if (ec)
            support::throw_write_error(path, ec.value());
        return replace(real, content);
    }
    if (S_ISFIFO(target.st_mode) || S_ISCHR(target.st_mode))
        return write_into(path, content);
    throw support::FileWriteError(
        fmt::format("cannot write {}: it is {}", path.string(), kind_of(target.st_mode)));
}

} // namespace hitmap::report
