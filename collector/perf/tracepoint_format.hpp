#pragma once
// A tracepoint's `format` file from tracefs (events/<category>/<name>/format): its id and where
// each field sits in the PERF_SAMPLE_RAW payload. Read from the running kernel rather than
// hard-coded, because field offsets are the kernel's to change.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace hitmap::perf {

struct TracepointField {
    std::size_t offset = 0;
    std::size_t size = 0;
    bool is_signed = false;
};

struct TracepointFormat {
    std::string name;
    std::uint64_t id = 0;
    std::map<std::string, TracepointField, std::less<>> fields;

    // The field's value from a raw payload, or nullopt when the payload is too short or the
    // field is unknown. Sizes 1, 2, 4 and 8; signed fields are sign-extended.
    std::optional<std::int64_t> read(std::span<const std::byte> raw, std::string_view field) const;
};

// Throws PerfInvalidConfig naming the first line that does not parse, or a missing ID line.
TracepointFormat parse_tracepoint_format(std::string_view text);

// Mounts tracefs at /sys/kernel/tracing when no tracefs is mounted, as perf itself does (only
// root may). Returns the root, or the reason there is none, in one line.
struct TracefsRoot {
    std::optional<std::filesystem::path> path;
    std::string reason; // set when path is empty
};
TracefsRoot ensure_tracefs();

// events/<category>/<name>/format under the root; throws PerfUnsupported when the kernel has no
// such tracepoint, PerfPermissionDenied when it is unreadable.
TracepointFormat read_tracepoint_format(const std::filesystem::path& tracefs,
                                        std::string_view category, std::string_view name);

} // namespace hitmap::perf
