#pragma once
// Words and number spellings shared by the lock table parsers. The tables are parsed by
// whitespace-separated words, never by column offsets: wide values overflow their columns,
// mail clients re-wrap lines and documentation replaces spaces with tabs.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace hitmap::locks {

struct Word {
    std::string_view text;
    std::size_t begin = 0; // offset in the line
    std::size_t end() const { return begin + text.size(); }
};

std::vector<Word> split_words(std::string_view line);
std::string_view trim(std::string_view s);
bool is_blank(std::string_view s);

// The shape of a numeric column, valid or not ("12", "0.06", "0.-32", "1x3" is not): used to tell
// a wrapped row's continuation lines and a row's columns from its name.
bool looks_numeric(std::string_view word);

std::optional<std::uint64_t> parse_unsigned(std::string_view digits);
std::optional<std::int64_t> parse_signed(std::string_view digits);
std::optional<std::uint64_t> parse_hex(std::string_view hex); // with or without "0x"

// A lock_stat time column: microseconds with two decimals, "%lld.%02d" of (ns + 5) / 1000.
struct LockstatTime {
    enum class Kind {
        value,     // ns holds the time
        truncated, // 14 digits, no point: an old kernel cut a wider value to its 15-byte buffer
        negative,  // "0.-32", "-1.05": a negative delta or the pre-2020 s32 average overflow
        malformed, // not something the kernel prints
    };
    Kind kind = Kind::malformed;
    std::int64_t ns = 0;
};

LockstatTime decode_lockstat_time(std::string_view word);

// A perf lock time: "1.41" "ms" (units h, m, s, ms, us, or an integer with ns) -> ns.
std::optional<std::int64_t> perf_time_ns(std::string_view number, std::string_view unit);
bool is_perf_time_unit(std::string_view word);

} // namespace hitmap::locks
