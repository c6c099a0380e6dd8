#include "collector/trace/trace_file.hpp"

#include "collector/support/replacing_file.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

namespace hitmap::collector {

namespace {

constexpr char kMagic[8] = {'H', 'I', 'T', 'M', 'T', 'R', 'C', '1'};

struct Header {
    char magic[8];
    std::uint32_t record_size;
    std::uint32_t threads;
    std::uint64_t traced_ops;
};

// Fast compression: traces are large and written once per run; level 1 keeps writing
// well below the time the replay takes.
constexpr int kZstdLevel = 1;

std::string hash_text(XXH64_hash_t h) {
    return fmt::format("xxh3:{:016x}", static_cast<std::uint64_t>(h));
}

// Streams zstd into a ReplacingFile, hashing the compressed bytes: the file appears at `path`
// only once complete.
class CompressedWriter {
public:
    explicit CompressedWriter(const std::filesystem::path& path)
        : path_(path)
        , out_(path)
        , ctx_(ZSTD_createCCtx())
        , hash_(XXH3_createState())
        , buffer_(ZSTD_CStreamOutSize()) {
        ZSTD_CCtx_setParameter(ctx_, ZSTD_c_compressionLevel, kZstdLevel);
        ZSTD_CCtx_setParameter(ctx_, ZSTD_c_checksumFlag, 1);
        XXH3_64bits_reset(hash_);
    }
    ~CompressedWriter() {
        ZSTD_freeCCtx(ctx_);
        XXH3_freeState(hash_);
    }

    void write(const void* data, std::size_t bytes) { pump(data, bytes, ZSTD_e_continue); }
    TraceFileFacts finish() {
        pump(nullptr, 0, ZSTD_e_end);
        const std::uint64_t bytes = out_.commit();
        return {bytes, hash_text(XXH3_64bits_digest(hash_)), std::nullopt};
    }

private:
    void pump(const void* data, std::size_t bytes, ZSTD_EndDirective mode) {
        ZSTD_inBuffer in{data, bytes, 0};
        for (;;) {
            ZSTD_outBuffer out{buffer_.data(), buffer_.size(), 0};
            const std::size_t left = ZSTD_compressStream2(ctx_, &out, &in, mode);
            if (ZSTD_isError(left))
                throw TraceFileError(
                    fmt::format("compressing {}: {}", path_.string(), ZSTD_getErrorName(left)));
            out_.write({buffer_.data(), out.pos});
            XXH3_64bits_update(hash_, buffer_.data(), out.pos);
            const bool done = mode == ZSTD_e_end ? left == 0 : in.pos == in.size;
            if (done)
                return;
        }
    }

    std::filesystem::path path_;
    support::ReplacingFile out_;
    ZSTD_CCtx* ctx_;
    XXH3_state_t* hash_;
    std::vector<char> buffer_;
};

// Reads a file opened by open_trace_file, retrying EINTR; returns the bytes read (0 at the end).
std::size_t read_some(int fd, const std::filesystem::path& path, char* data, std::size_t size) {
    for (;;) {
        const ssize_t n = ::read(fd, data, size);
        if (n >= 0)
            return static_cast<std::size_t>(n);
        if (errno != EINTR)
            throw TraceFileError(
                fmt::format("cannot read trace file {}: {}", path.string(), std::strerror(errno)));
    }
}

// Decompresses one frame, hashing every byte of the file as it is read.
class CompressedReader {
public:
    explicit CompressedReader(const std::filesystem::path& path)
        : in_(open_trace_file(path))
        , path_(path)
        , ctx_(ZSTD_createDCtx())
        , hash_(XXH3_createState())
        , buffer_(ZSTD_DStreamInSize()) {
        XXH3_64bits_reset(hash_);
    }
    ~CompressedReader() {
        ZSTD_freeDCtx(ctx_);
        XXH3_freeState(hash_);
    }

    void read(void* data, std::size_t bytes) {
        ZSTD_outBuffer out{data, bytes, 0};
        while (out.pos < out.size) {
            if (frame_done_)
                throw error("ends before its records do");
            if (input_.pos == input_.size && !refill())
                throw error("is truncated");
            step(out);
        }
    }

    // After the last record: the frame must end there (its checksum verified by zstd) and the
    // file with it. Returns the hash of the whole file.
    std::string finish() {
        char extra = 0;
        while (!frame_done_) {
            ZSTD_outBuffer out{&extra, 1, 0};
            // zstd may need no more input to finish (checksum already buffered).
            step(out);
            if (out.pos > 0)
                throw error("holds data after its last record");
            if (!frame_done_ && input_.pos == input_.size && !refill())
                throw error("is truncated");
        }
        std::uint64_t trailing = input_.size - input_.pos;
        while (refill())
            trailing += input_.size;
        if (trailing > 0)
            throw error(fmt::format("has {} bytes after the end of the trace", trailing));
        return hash_text(XXH3_64bits_digest(hash_));
    }

    std::uint64_t file_bytes() const {
        struct stat st {};
        if (::fstat(in_.get(), &st) != 0)
            throw error(fmt::format("cannot be read: {}", std::strerror(errno)));
        return static_cast<std::uint64_t>(st.st_size);
    }

    TraceFileError error(const std::string& what) const {
        return TraceFileError(fmt::format("trace file {} {}", path_.string(), what));
    }

private:
    bool refill() {
        const std::size_t got = read_some(in_.get(), path_, buffer_.data(), buffer_.size());
        XXH3_64bits_update(hash_, buffer_.data(), got);
        input_ = ZSTD_inBuffer{buffer_.data(), got, 0};
        return got > 0;
    }

    void step(ZSTD_outBuffer& out) {
        const std::size_t rc = ZSTD_decompressStream(ctx_, &out, &input_);
        if (ZSTD_isError(rc))
            throw error(fmt::format("is corrupt ({})", ZSTD_getErrorName(rc)));
        frame_done_ = rc == 0; // the frame is complete and its checksum verified
    }

    support::UniqueFd in_;
    std::filesystem::path path_;
    ZSTD_DCtx* ctx_;
    XXH3_state_t* hash_;
    std::vector<char> buffer_;
    ZSTD_inBuffer input_{nullptr, 0, 0};
    bool frame_done_ = false;
};

} // namespace

TraceFileFacts write_trace_file(const std::filesystem::path& path,
                                std::span<const std::span<const engine::TraceRecord>> threads,
                                std::uint64_t traced_ops) {
    std::filesystem::create_directories(path.parent_path());
    CompressedWriter writer(path);
    Header header{};
    std::memcpy(header.magic, kMagic, sizeof kMagic);
    header.record_size = sizeof(engine::TraceRecord);
    header.threads = static_cast<std::uint32_t>(threads.size());
    header.traced_ops = traced_ops;
    writer.write(&header, sizeof header);
    for (const auto& t : threads) {
        const std::uint64_t n = t.size();
        writer.write(&n, sizeof n);
    }
    for (const auto& t : threads)
        writer.write(t.data(), t.size_bytes());
    return writer.finish();
}

StoredTrace read_trace_file(const std::filesystem::path& path, const TraceFileFacts& expected) {
    CompressedReader reader(path);
    if (expected.bytes) {
        const std::uint64_t size = reader.file_bytes();
        if (size != *expected.bytes)
            throw reader.error(fmt::format("is {} bytes, the database says {} (truncated, "
                                           "extended or replaced)",
                                           size, *expected.bytes));
    }
    Header header{};
    reader.read(&header, sizeof header);
    if (std::memcmp(header.magic, kMagic, sizeof kMagic) != 0 ||
        header.record_size != sizeof(engine::TraceRecord))
        throw TraceFileError(
            fmt::format("{} is not a hitmap trace of this version", path.string()));
    if (header.threads > 4096)
        throw reader.error(fmt::format("is corrupt (thread count {})", header.threads));
    std::vector<std::uint64_t> counts(header.threads);
    std::uint64_t total = 0;
    for (auto& n : counts) {
        reader.read(&n, sizeof n);
        if (n > (std::uint64_t{1} << 36))
            throw reader.error(fmt::format("is corrupt (record count {})", n));
        total += n;
    }
    if (expected.records && total != *expected.records)
        throw reader.error(
            fmt::format("holds {} records, the database says {}", total, *expected.records));
    StoredTrace trace;
    trace.traced_ops = header.traced_ops;
    for (std::uint64_t n : counts) {
        auto& records = trace.threads.emplace_back(n);
        reader.read(records.data(), n * sizeof(engine::TraceRecord));
    }
    const std::string hash = reader.finish();
    if (expected.hash && hash != *expected.hash)
        throw reader.error(fmt::format("does not match the run's hash ({}, the database says "
                                       "{}): it was changed or replaced",
                                       hash, *expected.hash));
    return trace;
}

support::UniqueFd open_trace_file(const std::filesystem::path& path) {
    // O_NOFOLLOW: a link planted in the folder is not followed out of it. O_NONBLOCK: a FIFO
    // is opened without waiting for a writer, then refused below rather than read forever.
    support::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    if (!fd) {
        const int error = errno;
        if (error == ENOENT)
            throw TraceFileMissing(fmt::format("trace file {} is missing", path.string()));
        if (error == ELOOP)
            throw TraceFileError(fmt::format(
                "trace file {} is a symbolic link, not a file of its own", path.string()));
        throw TraceFileError(
            fmt::format("cannot read trace file {}: {}", path.string(), std::strerror(error)));
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0)
        throw TraceFileError(
            fmt::format("cannot read trace file {}: {}", path.string(), std::strerror(errno)));
    if (!S_ISREG(st.st_mode))
        throw TraceFileError(fmt::format("trace file {} is {}, not a regular file", path.string(),
                                         S_ISFIFO(st.st_mode)  ? "a FIFO"
                                         : S_ISDIR(st.st_mode) ? "a folder"
                                         : S_ISCHR(st.st_mode) ? "a character device"
                                         : S_ISBLK(st.st_mode) ? "a block device"
                                                               : "a socket"));
    // Reads of a regular file never return EAGAIN; cleared anyway so a read waits as usual.
    ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
    return fd;
}

void copy_trace_file(const std::filesystem::path& from, const std::filesystem::path& to) {
    const support::UniqueFd in = open_trace_file(from);
    std::error_code ec;
    std::filesystem::create_directories(to.parent_path(), ec);
    if (ec)
        support::throw_write_error(to, ec.value());
    support::ReplacingFile out(to);
    std::vector<char> buffer(1 << 20);
    while (const std::size_t n = read_some(in.get(), from, buffer.data(), buffer.size()))
        out.write({buffer.data(), n});
    out.commit();
}

std::string trace_file_name(std::int64_t run_id) {
    return fmt::format("run-{}.trace.zst", run_id);
}

std::filesystem::path resolve_trace_path(const std::filesystem::path& db_path,
                                         const std::string& stored_name) {
    return std::filesystem::path(db_path.string() + ".traces") / stored_name;
}

std::filesystem::path trace_path_for(const std::filesystem::path& db_path, std::int64_t run_id) {
    return resolve_trace_path(db_path, trace_file_name(run_id));
}

} // namespace hitmap::collector
