#include "collector/perf/tracepoint_format.hpp"

#include "collector/perf/errors.hpp"
#include "collector/perf/pmu_capabilities.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <sys/mount.h>
#include <unistd.h>

namespace hitmap::perf {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::optional<std::uint64_t> number(std::string_view s) {
    std::uint64_t v = 0;
    s = trim(s);
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size())
        return std::nullopt;
    return v;
}

// "key:value" out of one ';'-separated part of a field line.
std::optional<std::string_view> part_value(std::string_view part, std::string_view key) {
    part = trim(part);
    if (part.substr(0, key.size()) != key || part.size() <= key.size() || part[key.size()] != ':')
        return std::nullopt;
    return part.substr(key.size() + 1);
}

// "\tfield:void * lock_addr;\toffset:8;\tsize:8;\tsigned:0;"
std::optional<std::pair<std::string, TracepointField>> parse_field(std::string_view line) {
    std::string_view parts[4];
    for (auto& part : parts) {
        const auto semi = line.find(';');
        if (semi == std::string_view::npos)
            return std::nullopt;
        part = line.substr(0, semi);
        line.remove_prefix(semi + 1);
    }
    const auto decl = part_value(parts[0], "field");
    const auto offset = part_value(parts[1], "offset");
    const auto size = part_value(parts[2], "size");
    const auto is_signed = part_value(parts[3], "signed");
    if (!decl || !offset || !size || !is_signed)
        return std::nullopt;
    // The name is the declaration's last word, less any array suffix ("char comm[16]").
    std::string_view name = trim(*decl);
    name = name.substr(0, name.find('['));
    name = name.substr(name.find_last_of(" *") + 1);
    TracepointField field;
    const auto o = number(*offset), n = number(*size), s = number(*is_signed);
    if (name.empty() || !o || !n || !s)
        return std::nullopt;
    field.offset = *o;
    field.size = *n;
    field.is_signed = *s != 0;
    return std::pair{std::string(name), field};
}

} // namespace

std::optional<std::int64_t> TracepointFormat::read(std::span<const std::byte> raw,
                                                   std::string_view field) const {
    const auto it = fields.find(field);
    if (it == fields.end() || it->second.offset + it->second.size > raw.size())
        return std::nullopt;
    const TracepointField& f = it->second;
    std::uint64_t bits = 0;
    switch (f.size) {
    case 1:
    case 2:
    case 4:
    case 8:
        std::memcpy(&bits, raw.data() + f.offset, f.size); // little-endian, as perf's hosts
        break;
    default:
        return std::nullopt;
    }
    if (f.is_signed && f.size < 8 && (bits >> (f.size * 8 - 1)) & 1)
        bits |= ~std::uint64_t{0} << (f.size * 8);
    return static_cast<std::int64_t>(bits);
}

TracepointFormat parse_tracepoint_format(std::string_view text) {
    TracepointFormat format;
    bool have_id = false;
    std::size_t line_no = 0;
    while (!text.empty()) {
        const auto eol = text.find('\n');
        const std::string_view line = text.substr(0, eol);
        text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
        ++line_no;
        const std::string_view t = trim(line);
        if (auto v = part_value(t, "name")) {
            format.name = std::string(trim(*v));
        } else if (auto id = part_value(t, "ID")) {
            const auto n = number(*id);
            if (!n)
                throw PerfInvalidConfig(
                    fmt::format("tracepoint format line {}: bad ID '{}'", line_no, *id));
            format.id = *n;
            have_id = true;
        } else if (t.substr(0, 6) == "field:") {
            auto field = parse_field(t);
            if (!field)
                throw PerfInvalidConfig(
                    fmt::format("tracepoint format line {}: cannot read '{}'", line_no, t));
            format.fields.insert(std::move(*field));
        }
    }
    if (!have_id)
        throw PerfInvalidConfig("tracepoint format without an ID line");
    return format;
}

TracefsRoot ensure_tracefs() {
    if (auto root = tracefs_root())
        return {root, {}};
    if (::geteuid() != 0)
        return {std::nullopt, "tracefs is not mounted and only root may mount it (mount -t "
                              "tracefs nodev /sys/kernel/tracing)"};
    if (::mount("nodev", "/sys/kernel/tracing", "tracefs", 0, nullptr) != 0)
        return {std::nullopt, fmt::format("tracefs is not mounted and mounting it at "
                                          "/sys/kernel/tracing failed: {}",
                                          std::strerror(errno))};
    if (auto root = tracefs_root())
        return {root, {}};
    return {std::nullopt, "tracefs mounted at /sys/kernel/tracing shows no events/ directory"};
}

TracepointFormat read_tracepoint_format(const std::filesystem::path& tracefs,
                                        std::string_view category, std::string_view name) {
    const auto path = tracefs / "events" / category / name / "format";
    std::ifstream in(path);
    if (!in) {
        const int error = errno;
        if (error == EACCES || error == EPERM)
            throw PerfPermissionDenied(fmt::format("{}: permission denied", path.string()));
        throw PerfUnsupported(fmt::format("this kernel has no {}:{} tracepoint ({} is missing)",
                                          category, name, path.string()));
    }
    std::ostringstream text;
    text << in.rdbuf();
    return parse_tracepoint_format(text.str());
}

} // namespace hitmap::perf
