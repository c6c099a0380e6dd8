// libFuzzer target for the lock statistics parsers: any input either parses or throws one of
// the library's exception types (parse error, unsupported format, not UTF-8 as a whole),
// never anything else, and never crashes. Every parsed
// lock_stat table must print as v0.4 and parse back; complete ones must come back unchanged.
#include "collector/locks/errors.hpp"
#include "collector/locks/lock_import.hpp"
#include "collector/locks/lockstat_parser.hpp"
#include "collector/locks/lockstat_printer.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

using namespace hitmap::locks;

// Every field present and every time at the printed 10 ns resolution: a parsed table's times
// are, but an average the parser computed for a table without average columns (a "0.4" text
// that lost them) is total / count to the nanosecond.
bool complete(const LockCounters& c) {
    const auto printable = [](const std::optional<std::int64_t>& ns) {
        return ns && *ns % 10 == 0;
    };
    const auto times = [&](const LockTimes& t) {
        return printable(t.min_ns) && printable(t.max_ns) && printable(t.total_ns) &&
               printable(t.avg_ns);
    };
    return c.con_bounces && c.contentions && c.acq_bounces && c.acquisitions && times(c.wait) &&
           times(c.hold);
}

bool ends_like_a_side(std::string_view name) {
    return name.size() >= 2 && name[name.size() - 2] == '-' &&
           (name.back() == 'W' || name.back() == 'R');
}

// The printer's round-trip promise (lockstat_printer.hpp): all fields present at the printed
// resolution, no bare name that itself ends in "-W" or "-R", which lock_stat's text cannot tell
// from a side's row, and no contending points without contention points.
bool round_trips(const LockStatReport& report) {
    if (report.format != LockFormat::lockstat_v04 || !report.notes.empty())
        return false;
    for (const auto& stats : report.classes) {
        if ((stats.write && !complete(*stats.write)) || (stats.read && !complete(*stats.read)))
            return false;
        if (stats.write && !stats.read && ends_like_a_side(stats.name))
            return false;
        if (!stats.contending_points.empty() && stats.contention_points.empty())
            return false;
    }
    return true;
}

void check_printed(const LockStatReport& report) {
    const auto reparsed = parse_lock_stat(format_lock_stat_v04(report)); // must not throw
    if (reparsed.size() != 1 || reparsed[0].classes.size() != report.classes.size())
        std::abort();
    if (!round_trips(report))
        return;
    auto sorted = report.classes;
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
        return a.total_contentions() > b.total_contentions();
    });
    if (reparsed[0].classes != sorted)
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const LockFormat format = detect_format(text);
    try {
        for (const auto& report : parse_lock_text(text))
            if (format == LockFormat::lockstat_v03 || format == LockFormat::lockstat_v04)
                check_printed(report);
    } catch (const LockParseError&) {
    } catch (const UnsupportedLockFormat&) {
    } catch (const LockTextEncodingError&) {
    }
    return 0;
}
