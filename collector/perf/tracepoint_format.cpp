#include "collector/perf/tracepoint_format.hpp"

#include "collector/perf/errors.hpp"

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <event-parse.h>
#include <fmt/format.h>
#include <new>

// The libtracefs calls made here, as <tracefs.h> declares them. The header itself is C only
// (libtracefs 1.6.4, and upstream still): no extern "C", and its inline tracefs_hist_start()
// passes 0 for an enum, which C++ refuses. These four are libtracefs.so.1's stable ABI.
extern "C" {
struct tracefs_instance;
const char* tracefs_tracing_dir(void);
tracefs_instance* tracefs_instance_alloc(const char* tracing_dir, const char* name);
void tracefs_instance_free(tracefs_instance* instance);
char* tracefs_event_file_read(tracefs_instance* instance, const char* system, const char* event,
                              const char* file, int* psize);
}

namespace hitmap::perf {

namespace {

struct InstanceFree {
    void operator()(tracefs_instance* instance) const { tracefs_instance_free(instance); }
};
struct BufferFree {
    void operator()(char* buffer) const { std::free(buffer); }
};

std::string tep_reason(tep_handle* tep, tep_errno error) {
    std::array<char, 160> text{};
    if (tep_strerror(tep, error, text.data(), text.size()) != 0)
        return fmt::format("libtraceevent error {}", static_cast<int>(error));
    return text.data();
}

tep_format_field* find_field(tep_event* event, std::string_view name) {
    return tep_find_any_field(event, std::string(name).c_str());
}

} // namespace

std::string_view TracepointFormat::name() const {
    return event_->name;
}

std::uint64_t TracepointFormat::id() const {
    return static_cast<std::uint64_t>(event_->id);
}

std::optional<TracepointField> TracepointFormat::field(std::string_view name) const {
    const tep_format_field* f = find_field(event_, name);
    if (!f || f->offset < 0 || f->size < 0)
        return std::nullopt;
    return TracepointField{static_cast<std::size_t>(f->offset), static_cast<std::size_t>(f->size),
                           (f->flags & TEP_FIELD_IS_SIGNED) != 0};
}

TracepointField TracepointFormat::require(std::string_view name) const {
    if (auto f = field(name))
        return *f;
    throw PerfInvalidConfig(fmt::format(
        "tracepoint {}:{} has no field '{}'{}", event_->system, event_->name, name,
        (event_->flags & TEP_EVENT_FL_FAILED) ? " (libtraceevent could not parse all of its format)"
                                              : ""));
}

std::optional<std::int64_t> TracepointFormat::read(std::span<const std::byte> raw,
                                                   std::string_view field) const {
    tep_format_field* f = find_field(event_, field);
    if (!f || f->offset < 0 || f->size < 0 ||
        static_cast<std::size_t>(f->offset) + static_cast<std::size_t>(f->size) > raw.size())
        return std::nullopt;
    unsigned long long bits = 0;
    // Fails for sizes other than 1, 2, 4 and 8.
    if (tep_read_number_field(f, raw.data(), &bits) != 0)
        return std::nullopt;
    if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8 && (bits >> (f->size * 8 - 1)) & 1)
        bits |= ~0ull << (f->size * 8);
    return static_cast<std::int64_t>(bits);
}

TracepointFormat parse_tracepoint_format(std::string_view text, std::string_view category) {
    TracepointFormat format;
    tep_handle* tep = tep_alloc();
    if (!tep)
        throw std::bad_alloc();
    format.tep_.reset(tep, tep_free);
    // PERF_SAMPLE_RAW payloads are in the host's byte order, as perf tells libtraceevent too
    // (tools/perf/util/trace-event.c, trace_event__init2).
    tep_set_file_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
    const std::string system(category);
    tep_event* event = nullptr;
    const tep_errno error = tep_parse_format(tep, &event, text.data(), text.size(), system.c_str());
    // libtraceevent 1.7 returns an event, and success, once the name and ID lines are read; a
    // field block or print fmt it cannot parse only sets TEP_EVENT_FL_FAILED (see require()).
    if (!event) {
        std::string reason = tep_reason(tep, error);
        if (error == TEP_ERRNO__MEM_ALLOC_FAILED)
            reason += ", which libtraceevent 1.7 also says of a missing 'name:' line";
        throw PerfInvalidConfig(fmt::format("tracepoint format not readable: {}", reason));
    }
    format.event_ = event;
    return format;
}

TracefsRoot ensure_tracefs() {
    errno = 0;
    if (const char* dir = tracefs_tracing_dir())
        return {std::filesystem::path(dir), {}};
    const int error = errno;
    if (error == EPERM)
        return {std::nullopt, "tracefs is not mounted and only root may mount it (mount -t "
                              "tracefs nodev /sys/kernel/tracing)"};
    return {std::nullopt, fmt::format("tracefs is not mounted and libtracefs could not mount it at "
                                      "/sys/kernel/tracing: {}",
                                      error ? std::strerror(error) : "it gave no reason")};
}

TracepointFormat read_tracepoint_format(const std::filesystem::path& tracefs,
                                        std::string_view category, std::string_view name) {
    const auto path = tracefs / "events" / category / name / "format";
    const std::string system(category), event(name);
    int size = 0;
    errno = 0;
    // The top instance of this tracing directory, which need not be the one libtracefs would
    // find itself: the tests point it at a copied tree.
    const std::unique_ptr<tracefs_instance, InstanceFree> top(
        tracefs_instance_alloc(tracefs.c_str(), nullptr));
    const std::unique_ptr<char, BufferFree> text(
        top ? tracefs_event_file_read(top.get(), system.c_str(), event.c_str(), "format", &size)
            : nullptr);
    const int error = errno;
    if (text)
        return parse_tracepoint_format(std::string_view(text.get(), size), category);
    if (error == EACCES || error == EPERM)
        throw PerfPermissionDenied(fmt::format("{}: permission denied", path.string()));
    if (error == ENOENT || error == ENOTDIR)
        throw PerfUnsupported(fmt::format("this kernel has no {}:{} tracepoint ({} is missing)",
                                          category, name, path.string()));
    throw PerfSystemError(
        fmt::format("{}: {}", path.string(), error ? std::strerror(error) : "empty file"));
}

} // namespace hitmap::perf
