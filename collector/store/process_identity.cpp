#include "collector/store/process_identity.hpp"

#include "collector/support/text_file.hpp"

#include <charconv>
#include <string>
#include <unistd.h>

namespace hitmap::store {
namespace {

std::optional<std::int64_t> start_of(const std::filesystem::path& stat_file) {
    const auto text = support::read_text_file(stat_file);
    return text ? parse_start_ticks(*text) : std::nullopt;
}

} // namespace

std::optional<std::int64_t> parse_start_ticks(std::string_view stat) {
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so fields are
    // counted from the last ')'. starttime is field 22, the 20th after comm.
    const auto close = stat.rfind(')');
    if (close == std::string_view::npos)
        return std::nullopt;
    std::string_view rest = stat.substr(close + 1);
    for (int field = 3; field <= 22; ++field) {
        const auto begin = rest.find_first_not_of(' ');
        if (begin == std::string_view::npos)
            return std::nullopt;
        rest.remove_prefix(begin);
        const auto end = rest.find(' ');
        const std::string_view value = rest.substr(0, end);
        if (field == 22) {
            std::int64_t ticks = 0;
            const auto [ptr, ec] =
                std::from_chars(value.data(), value.data() + value.size(), ticks);
            if (ec != std::errc() || (ptr != value.data() + value.size() && *ptr != '\n'))
                return std::nullopt;
            return ticks;
        }
        if (end == std::string_view::npos)
            return std::nullopt;
        rest.remove_prefix(end);
    }
    return std::nullopt;
}

ProcessIdentity current_process() {
    const std::int64_t pid = ::getpid();
    return {pid, start_of("/proc/self/stat").value_or(0)};
}

bool process_alive(const ProcessIdentity& process, const std::filesystem::path& proc) {
    const auto start = start_of(proc / std::to_string(process.pid) / "stat");
    return start && *start == process.start_ticks;
}

} // namespace hitmap::store
