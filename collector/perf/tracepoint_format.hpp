#pragma once
// A tracepoint's `format` file from tracefs (events/<category>/<name>/format): its id and where
// each field sits in the PERF_SAMPLE_RAW payload. Read from the running kernel rather than
// hard-coded, because field offsets are the kernel's to change. Parsed by libtraceevent and
// located by libtracefs, the libraries perf and trace-cmd use for the same files.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

struct tep_handle;
struct tep_event;

namespace hitmap::perf {

struct TracepointField {
    std::size_t offset = 0;
    std::size_t size = 0;
    bool is_signed = false;
};

// One parsed format. Copies share the parsed handle, which is only read after parsing, so the
// per-thread tracers of a run can each hold one.
class TracepointFormat {
public:
    std::string_view name() const;
    std::uint64_t id() const;

    // Where the field sits (common_* fields included), or nullopt when the format has none.
    std::optional<TracepointField> field(std::string_view name) const;
    // The same, or PerfInvalidConfig naming the field: libtraceevent keeps a format whose field
    // block it could read only in part, so a missing field is reported where it is needed.
    TracepointField require(std::string_view name) const;

    // The field's value from a raw payload, or nullopt when the payload is too short or the
    // field is unknown. Sizes 1, 2, 4 and 8; signed fields are sign-extended.
    std::optional<std::int64_t> read(std::span<const std::byte> raw, std::string_view field) const;

private:
    friend TracepointFormat parse_tracepoint_format(std::string_view, std::string_view);
    TracepointFormat() = default;

    std::shared_ptr<tep_handle> tep_;
    tep_event* event_ = nullptr; // owned by tep_
};

// Throws PerfInvalidConfig with libtraceevent's reason when the text has no readable name or
// ID line. `category` is the tracepoint's system ("lock").
TracepointFormat parse_tracepoint_format(std::string_view text, std::string_view category);

// The tracing directory as libtracefs finds it, mounting tracefs at /sys/kernel/tracing when
// none is mounted, as perf and trace-cmd do (only root may). Returns the root, or the reason
// there is none, in one line.
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
