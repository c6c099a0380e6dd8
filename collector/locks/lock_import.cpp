#include "collector/locks/lock_import.hpp"

#include "collector/locks/errors.hpp"
#include "collector/locks/line_source.hpp"
#include "collector/locks/lockstat_parser.hpp"
#include "collector/locks/perf_lock_parser.hpp"
#include "collector/locks/text_scan.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <initializer_list>
#include <utility>

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

// A byte order mark, or the NULs that UTF-16 puts beside every ASCII character of the first
// line (at even offsets for big endian, odd ones for little endian).
bool looks_like_utf16(std::string_view text) {
    if (text.starts_with("\xff\xfe") || text.starts_with("\xfe\xff"))
        return true;
    const std::string_view head = text.substr(0, std::min<std::size_t>(text.size(), 64) & ~1u);
    if (head.size() < 4)
        return false;
    bool even = true;
    bool odd = true;
    for (std::size_t i = 0; i < head.size(); i += 2) {
        even = even && head[i] == '\0';
        odd = odd && head[i + 1] == '\0';
    }
    return even || odd;
}

// The length of the UTF-8 sequence starting at text[i], or 0 when it is invalid (truncated,
// overlong, a surrogate or above U+10FFFF).
std::size_t utf8_length(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) {
        return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u;
    };
    const unsigned b0 = byte(0);
    const auto cont = [&](std::size_t k) { return (byte(k) & 0xc0u) == 0x80u; };
    if (b0 < 0x80)
        return 1;
    if (b0 >= 0xc2 && b0 <= 0xdf)
        return cont(1) ? 2 : 0;
    if (b0 >= 0xe0 && b0 <= 0xef) {
        const unsigned b1 = byte(1);
        const bool ok =
            (b0 == 0xe0 && b1 >= 0xa0) || (b0 == 0xed && b1 < 0xa0) || (b0 != 0xe0 && b0 != 0xed);
        return ok && cont(1) && cont(2) ? 3 : 0;
    }
    if (b0 >= 0xf0 && b0 <= 0xf4) {
        const unsigned b1 = byte(1);
        const bool ok =
            (b0 == 0xf0 && b1 >= 0x90) || (b0 == 0xf4 && b1 < 0x90) || (b0 != 0xf0 && b0 != 0xf4);
        return ok && cont(1) && cont(2) && cont(3) ? 4 : 0;
    }
    return 0;
}

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

void check_text(std::string_view text) {
    if (looks_like_utf16(text))
        throw LockTextEncodingError("looks like UTF-16; convert it to UTF-8 (iconv -f UTF-16 -t "
                                    "UTF-8)");
    std::size_t line = 1;
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n' || (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) {
            line += c == '\n';
            ++i;
            continue;
        }
        // A tab separates columns; every other control character is garbage in a lock table.
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            throw LockParseError(line, fmt::format("control character {:#04x} in the text", c));
        const std::size_t n = utf8_length(text, i);
        if (n == 0)
            throw LockParseError(line, fmt::format("invalid UTF-8 (byte {:#04x})", c));
        i += n;
    }
}

void parse_lock_text(std::string_view text, LockTableSink& sink) {
    check_text(text);
    // Counts the tables on their way through, for the "no table" refusal.
    struct Counting : LockTableSink {
        explicit Counting(LockTableSink& to)
            : to(to) {}
        void begin_table(const LockStatReport& t) override { ++tables, to.begin_table(t); }
        void add_class(LockClassStats&& c) override { to.add_class(std::move(c)); }
        void end_table(const LockStatReport& t) override { to.end_table(t); }
        LockTableSink& to;
        std::size_t tables = 0;
    } counting(sink);
    switch (const LockFormat format = detect_format(text)) {
    case LockFormat::lockstat_v03:
    case LockFormat::lockstat_v04:
        replay(parse_lock_stat(text), counting);
        break;
    case LockFormat::perf_lock_contention:
    case LockFormat::perf_lock_contention_csv:
    case LockFormat::perf_lock_report:
        parse_perf_lock(text, counting);
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
    if (counting.tables == 0)
        throw UnsupportedLockFormat(
            LockFormat::unknown,
            fmt::format("no /proc/lock_stat or perf lock table found; {}", kUseSupported));
}

std::vector<LockStatReport> parse_lock_text(std::string_view text) {
    CollectingSink all;
    parse_lock_text(text, all);
    return std::move(all.reports);
}

} // namespace hitmap::locks
