#include "collector/locks/lock_import.hpp"

#include "collector/locks/errors.hpp"
#include "collector/locks/line_source.hpp"
#include "collector/locks/lockstat_parser.hpp"
#include "collector/locks/perf_lock_parser.hpp"
#include "collector/locks/text_scan.hpp"

#include <fmt/format.h>
#include <initializer_list>

namespace hitmap::locks {

namespace {

bool words_start_with(std::string_view text, std::initializer_list<std::string_view> expected) {
    const auto words = split_words(text);
    if (words.size() < expected.size())
        return false;
    std::size_t i = 0;
    for (const auto word : expected)
        if (words[i++].text != word)
            return false;
    return true;
}

// mutrace: "mutrace: Showing 10 most contended mutexes:" and its " Mutex #   Locked  Changed"
// table.
bool is_mutrace_line(std::string_view text) {
    return text.starts_with("mutrace:") || words_start_with(text, {"Mutex", "#", "Locked"});
}

// illumos lockstat(8): "Count indv cuml rcnt     nsec Lock   Caller" (or "ops/s" with -R).
bool is_illumos_line(std::string_view text) {
    return words_start_with(text, {"Count", "indv", "cuml", "rcnt"}) ||
           words_start_with(text, {"ops/s", "indv", "cuml", "rcnt"});
}

constexpr std::string_view kUseSupported = "import /proc/lock_stat or perf lock output";

} // namespace

LockFormat detect_format(std::string_view text) {
    LineSource lines(text);
    while (!lines.done()) {
        const std::string text_line = lines.take().text;
        const std::string_view line = trim(text_line);
        if (const auto format = lockstat_line_format(line))
            return *format;
        if (const auto format = perf_lock_line_format(line))
            return *format;
        if (is_mutrace_line(line))
            return LockFormat::mutrace;
        if (is_illumos_line(line))
            return LockFormat::illumos_lockstat;
    }
    return LockFormat::unknown;
}

std::vector<LockStatReport> parse_lock_text(std::string_view text) {
    std::vector<LockStatReport> reports;
    switch (const LockFormat format = detect_format(text)) {
    case LockFormat::lockstat_v03:
    case LockFormat::lockstat_v04:
        reports = parse_lock_stat(text);
        break;
    case LockFormat::perf_lock_contention:
    case LockFormat::perf_lock_contention_csv:
    case LockFormat::perf_lock_report:
        reports = parse_perf_lock(text);
        break;
    case LockFormat::mutrace:
        throw UnsupportedLockFormat(
            format, fmt::format("mutrace output is not supported; {}", kUseSupported));
    case LockFormat::illumos_lockstat:
        throw UnsupportedLockFormat(
            format, fmt::format("illumos lockstat output is not supported; {}", kUseSupported));
    case LockFormat::unknown:
        break;
    }
    if (reports.empty())
        throw UnsupportedLockFormat(
            LockFormat::unknown,
            fmt::format("no /proc/lock_stat or perf lock table found; {}", kUseSupported));
    return reports;
}

} // namespace hitmap::locks
