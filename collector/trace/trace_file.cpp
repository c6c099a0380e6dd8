#include "collector/trace/trace_file.hpp"

#include <cstring>
#include <fmt/format.h>
#include <fstream>
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

class CompressedWriter {
public:
    explicit CompressedWriter(const std::filesystem::path& path)
        : out_(path, std::ios::binary | std::ios::trunc)
        , path_(path)
        , ctx_(ZSTD_createCCtx())
        , buffer_(ZSTD_CStreamOutSize()) {
        if (!out_)
            throw TraceFileError(fmt::format("cannot write trace file {}", path.string()));
        ZSTD_CCtx_setParameter(ctx_, ZSTD_c_compressionLevel, kZstdLevel);
    }
    ~CompressedWriter() { ZSTD_freeCCtx(ctx_); }

    void write(const void* data, std::size_t bytes) { pump(data, bytes, ZSTD_e_continue); }
    std::uint64_t finish() {
        pump(nullptr, 0, ZSTD_e_end);
        out_.flush();
        if (!out_)
            throw TraceFileError(
                fmt::format("cannot write trace file {} (disk full?)", path_.string()));
        return static_cast<std::uint64_t>(out_.tellp());
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
            const bool done = mode == ZSTD_e_end ? left == 0 : in.pos == in.size;
            if (done)
                return;
        }
    }

    std::ofstream out_;
    std::filesystem::path path_;
    ZSTD_CCtx* ctx_;
    std::vector<char> buffer_;
};

class CompressedReader {
public:
    explicit CompressedReader(const std::filesystem::path& path)
        : in_(path, std::ios::binary)
        , path_(path)
        , ctx_(ZSTD_createDCtx())
        , buffer_(ZSTD_DStreamInSize()) {
        if (!in_)
            throw TraceFileError(fmt::format("trace file {} is missing", path.string()));
    }
    ~CompressedReader() { ZSTD_freeDCtx(ctx_); }

    void read(void* data, std::size_t bytes) {
        ZSTD_outBuffer out{data, bytes, 0};
        while (out.pos < out.size) {
            if (input_.pos == input_.size) {
                in_.read(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
                const auto got = static_cast<std::size_t>(in_.gcount());
                if (got == 0)
                    throw TraceFileError(fmt::format("trace file {} is truncated", path_.string()));
                input_ = ZSTD_inBuffer{buffer_.data(), got, 0};
            }
            const std::size_t rc = ZSTD_decompressStream(ctx_, &out, &input_);
            if (ZSTD_isError(rc))
                throw TraceFileError(fmt::format("trace file {} is corrupt ({})", path_.string(),
                                                 ZSTD_getErrorName(rc)));
        }
    }

private:
    std::ifstream in_;
    std::filesystem::path path_;
    ZSTD_DCtx* ctx_;
    std::vector<char> buffer_;
    ZSTD_inBuffer input_{nullptr, 0, 0};
};

} // namespace

std::uint64_t write_trace_file(const std::filesystem::path& path,
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

StoredTrace read_trace_file(const std::filesystem::path& path) {
    CompressedReader reader(path);
    Header header{};
    reader.read(&header, sizeof header);
    if (std::memcmp(header.magic, kMagic, sizeof kMagic) != 0 ||
        header.record_size != sizeof(engine::TraceRecord))
        throw TraceFileError(
            fmt::format("{} is not a hitmap trace of this version", path.string()));
    if (header.threads > 4096)
        throw TraceFileError(fmt::format("trace file {} is corrupt (thread count {})",
                                         path.string(), header.threads));
    std::vector<std::uint64_t> counts(header.threads);
    for (auto& n : counts)
        reader.read(&n, sizeof n);
    StoredTrace trace;
    trace.traced_ops = header.traced_ops;
    for (std::uint64_t n : counts) {
        if (n > (std::uint64_t{1} << 36))
            throw TraceFileError(
                fmt::format("trace file {} is corrupt (record count {})", path.string(), n));
        auto& records = trace.threads.emplace_back(n);
        reader.read(records.data(), n * sizeof(engine::TraceRecord));
    }
    return trace;
}

std::filesystem::path relative_trace_path(const std::filesystem::path& db_path,
                                          std::int64_t run_id) {
    return std::filesystem::path(db_path.filename().string() + ".traces") /
           fmt::format("run-{}.trace.zst", run_id);
}

std::filesystem::path trace_path_for(const std::filesystem::path& db_path, std::int64_t run_id) {
    return db_path.parent_path() / relative_trace_path(db_path, run_id);
}

} // namespace hitmap::collector
