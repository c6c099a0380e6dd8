#include "collector/support/replacing_file.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

namespace hitmap::support {

void throw_write_error(const std::filesystem::path& path, int error) {
    throw FileWriteError(fmt::format("cannot write {}: {}", path.string(), std::strerror(error)));
}

int write_all(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n > 0)
            bytes.remove_prefix(static_cast<std::size_t>(n));
        else if (n == 0)
            return EIO;
        else if (errno != EINTR)
            return errno;
    }
    return 0;
}

ReplacingFile::ReplacingFile(std::filesystem::path target)
    : target_(std::move(target))
    , partial_(target_.string() + ".partial") {
    fd_ = ::open(partial_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0)
        throw_write_error(target_, errno);
}

ReplacingFile::~ReplacingFile() {
    if (fd_ >= 0)
        ::close(fd_);
    if (!committed_)
        ::unlink(partial_.c_str());
}

void ReplacingFile::fail(int error) {
    if (fd_ >= 0)
        ::close(fd_);
    fd_ = -1;
    throw_write_error(target_, error);
}

void ReplacingFile::write(std::string_view bytes) {
    if (const int error = write_all(fd_, bytes))
        fail(error);
    written_ += bytes.size();
}

std::uint64_t ReplacingFile::commit() {
    // ENOSPC may only show at fsync or close on some file systems.
    if (::fsync(fd_) != 0)
        fail(errno);
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0)
        throw_write_error(target_, errno);
    if (::rename(partial_.c_str(), target_.c_str()) != 0)
        throw_write_error(target_, errno);
    committed_ = true;
    return written_;
}

} // namespace hitmap::support
