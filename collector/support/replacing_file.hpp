#pragma once
// A file replaced whole or not at all: written under "<target>.partial" in the target's folder,
// flushed to disk, and renamed over the target only once complete, so a failed write (full disk,
// no permission, an exception on the way) leaves the target as it was and no partial file
// behind. Exported reports and trace files are written this way.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string_view>

namespace hitmap::support {

// One line naming the file and the system's reason ("cannot write r.html: No space left on
// device").
class FileWriteError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_write_error(const std::filesystem::path& path, int error);

// Writes all of `bytes` to `fd`, retrying short writes and EINTR; returns 0 or the errno.
int write_all(int fd, std::string_view bytes);

class ReplacingFile {
public:
    // Creates the partial file; throws FileWriteError naming `target`.
    explicit ReplacingFile(std::filesystem::path target);
    ReplacingFile(const ReplacingFile&) = delete;
    ReplacingFile& operator=(const ReplacingFile&) = delete;
    // Removes the partial file unless commit() renamed it.
    ~ReplacingFile();

    void write(std::string_view bytes);
    // Flushes, closes and renames over the target; returns the bytes written.
    std::uint64_t commit();

private:
    [[noreturn]] void fail(int error);

    std::filesystem::path target_, partial_;
    int fd_ = -1;
    std::uint64_t written_ = 0;
    bool committed_ = false;
};

} // namespace hitmap::support
