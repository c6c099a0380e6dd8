#include "collector/trace/trace_file.hpp"

#include <cstring>
#include <fmt/format.h>
#include <fstream>
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

// Streams zstd into "<path>.partial", hashing the compressed bytes, and renames the file to
// `path` only once it is complete; a writer destroyed before that removes the partial file.
class CompressedWriter {
public:
    explicit CompressedWriter(const std::filesystem::path& path)
        : path_(path)
        , partial_(path.string() + ".partial")
        , out_(partial_, std::ios::binary | std::ios::trunc)
        , ctx_(ZSTD_createCCtx())
        , hash_(XXH3_createState())
        , buffer_(ZSTD_CStreamOutSize()) {
        if (!out_)
            throw TraceFileError(fmt::format("cannot write trace file {}", path.string()));
        ZSTD_CCtx_setParameter(ctx_, ZSTD_c_compressionLevel, kZstdLevel);
        ZSTD_CCtx_setParameter(ctx_, ZSTD_c_checksumFlag, 1);
        XXH3_64bits_reset(hash_);
    }
    ~CompressedWriter() {
        ZSTD_freeCCtx(ctx_);
        XXH3_freeState(hash_);
        if (!renamed_) {
            out_.close();
            std::error_code ec;
            std::filesystem::remove(partial_, ec);
        }
    }

    void write(const void* data, std::size_t bytes) { pump(data, bytes, ZSTD_e_continue); }
    TraceFileFacts finish() {
        pump(nullptr, 0, ZSTD_e_end);
        out_.flush();
        const auto bytes = static_cast<std::uint64_t>(out_.tellp());
        out_.close();
        if (!out_)
            throw TraceFileError(
                fmt::format("cannot write trace file {} (disk full?)", path_.string()));
        std::error_code ec;
        std::filesystem::rename(partial_, path_, ec);
        if (ec)
            throw TraceFileError(
                fmt::format("cannot write trace file {}: {}", path_.string(), ec.message()));
        renamed_ = true;
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
            out_.write(buffer_.data(), static_cast<std::streamsize>(out.pos));
            XXH3_64bits_update(hash_, buffer_.data(), out.pos);
            const bool done = mode == ZSTD_e_end ? left == 0 : in.pos == in.size;
            if (done)
                return;
        }
    }

    std::filesystem::path path_, partial_;
    std::ofstream out_;
    ZSTD_CCtx* ctx_;
    XXH3_state_t* hash_;
    std::vector<char> buffer_;
    bool renamed_ = false;
};

// Decompresses one frame, hashing every byte of the file as it is read.
class CompressedReader {
public:
    explicit CompressedReader(const std::filesystem::path& path)
        : in_(path, std::ios::binary)
        , path_(path)
        , ctx_(ZSTD_createDCtx())
        , hash_(XXH3_createState())
        , buffer_(ZSTD_DStreamInSize()) {
        if (!in_)
            throw TraceFileError(fmt::format("trace file {} is missing", path.string()));
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

    TraceFileError error(const std::string& what) const {
        return TraceFileError(fmt::format("trace file {} {}", path_.string(), what));
    }

private:
    bool refill() {
        in_.read(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
        const auto got = static_cast<std::size_t>(in_.gcount());
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

    std::ifstream in_;
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
        std::error_code ec;
        const auto size = std::filesystem::file_size(path, ec);
        if (!ec && size != *expected.bytes)
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
