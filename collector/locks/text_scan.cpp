#include "collector/locks/text_scan.hpp"

#include <array>
#include <limits>
#include <utility>

namespace hitmap::locks {

namespace {

bool is_space(char c) {
    return c == ' ' || c == '\t';
}
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

bool all_digits(std::string_view s) {
    if (s.empty())
        return false;
    for (const char c : s)
        if (!is_digit(c))
            return false;
    return true;
}

// Decimal "123" or "123.45" as mantissa 12345 with 2 fraction digits.
struct Decimal {
    std::uint64_t mantissa = 0;
    unsigned fraction_digits = 0;
};

std::optional<Decimal> parse_decimal(std::string_view s) {
    const std::size_t point = s.find('.');
    const std::string_view whole = s.substr(0, point);
    const std::string_view fraction =
        point == std::string_view::npos ? std::string_view{} : s.substr(point + 1);
    if (!all_digits(whole) || (point != std::string_view::npos && !all_digits(fraction)) ||
        fraction.size() > 9)
        return std::nullopt;
    Decimal d;
    for (const char c : s) {
        if (c == '.')
            continue;
        if (__builtin_mul_overflow(d.mantissa, 10u, &d.mantissa) ||
            __builtin_add_overflow(d.mantissa, static_cast<unsigned>(c - '0'), &d.mantissa))
            return std::nullopt;
    }
    d.fraction_digits = static_cast<unsigned>(fraction.size());
    return d;
}

} // namespace

std::vector<Word> split_words(std::string_view line) {
    std::vector<Word> words;
    words.reserve(16); // a lock_stat or perf lock row: one allocation, not five
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && is_space(line[i]))
            ++i;
        const std::size_t begin = i;
        while (i < line.size() && !is_space(line[i]))
            ++i;
        if (i > begin)
            words.push_back({line.substr(begin, i - begin), begin});
    }
    return words;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && is_space(s.back()))
        s.remove_suffix(1);
    return s;
}

bool is_blank(std::string_view s) {
    return trim(s).empty();
}

bool looks_numeric(std::string_view word) {
    if (!word.empty() && word.front() == '-')
        word.remove_prefix(1);
    if (word.empty() || !is_digit(word.front()))
        return false;
    for (const char c : word)
        if (!is_digit(c) && c != '.' && c != '-')
            return false;
    return true;
}

std::optional<std::uint64_t> parse_unsigned(std::string_view digits) {
    if (!all_digits(digits))
        return std::nullopt;
    std::uint64_t value = 0;
    for (const char c : digits)
        if (__builtin_mul_overflow(value, 10u, &value) ||
            __builtin_add_overflow(value, static_cast<unsigned>(c - '0'), &value))
            return std::nullopt;
    return value;
}

std::optional<std::int64_t> parse_signed(std::string_view digits) {
    const bool negative = !digits.empty() && digits.front() == '-';
    if (negative)
        digits.remove_prefix(1);
    const auto magnitude = parse_unsigned(digits);
    if (!magnitude ||
        *magnitude > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return std::nullopt;
    const auto value = static_cast<std::int64_t>(*magnitude);
    return negative ? -value : value;
}

std::optional<std::uint64_t> parse_hex(std::string_view hex) {
    if (hex.size() > 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X'))
        hex.remove_prefix(2);
    if (hex.empty() || hex.size() > 16)
        return std::nullopt;
    std::uint64_t value = 0;
    for (const char c : hex) {
        unsigned digit = 0;
        if (is_digit(c))
            digit = static_cast<unsigned>(c - '0');
        else if (c >= 'a' && c <= 'f')
            digit = static_cast<unsigned>(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            digit = static_cast<unsigned>(c - 'A' + 10);
        else
            return std::nullopt;
        value = value << 4 | digit;
    }
    return value;
}

LockstatTime decode_lockstat_time(std::string_view word) {
    const std::size_t point = word.find('.');
    if (point == std::string_view::npos)
        return {word.size() == 14 && all_digits(word) ? LockstatTime::Kind::truncated
                                                      : LockstatTime::Kind::malformed};
    std::string_view whole = word.substr(0, point);
    std::string_view fraction = word.substr(point + 1);
    // Negative values come out of "%lld.%02d" with the sign on the whole part, the fraction
    // part, or both, and the fraction then has one or two digits.
    const bool negative_whole = !whole.empty() && whole.front() == '-';
    const bool negative_fraction = !fraction.empty() && fraction.front() == '-';
    if (negative_whole)
        whole.remove_prefix(1);
    if (negative_fraction)
        fraction.remove_prefix(1);
    if (!all_digits(whole) || !all_digits(fraction))
        return {LockstatTime::Kind::malformed};
    if (negative_whole || negative_fraction)
        return {fraction.size() <= 2 ? LockstatTime::Kind::negative
                                     : LockstatTime::Kind::malformed};
    if (fraction.size() != 2)
        return {LockstatTime::Kind::malformed};
    const auto micros = parse_unsigned(whole);
    const auto hundredths = parse_unsigned(fraction);
    std::int64_t ns = 0;
    if (!micros || *micros > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) ||
        __builtin_mul_overflow(static_cast<std::int64_t>(*micros), 1000, &ns) ||
        __builtin_add_overflow(ns, static_cast<std::int64_t>(*hundredths) * 10, &ns))
        return {LockstatTime::Kind::malformed};
    return {LockstatTime::Kind::value, ns};
}

bool is_perf_time_unit(std::string_view word) {
    return word == "ns" || word == "us" || word == "ms" || word == "s" || word == "m" ||
           word == "h";
}

std::optional<std::int64_t> perf_time_ns(std::string_view number, std::string_view unit) {
    static constexpr std::array<std::pair<std::string_view, std::uint64_t>, 6> units{{
        {"ns", 1},
        {"us", 1'000},
        {"ms", 1'000'000},
        {"s", 1'000'000'000},
        {"m", 60'000'000'000},
        {"h", 3'600'000'000'000},
    }};
    std::uint64_t scale = 0;
    for (const auto& [name, ns] : units)
        if (name == unit)
            scale = ns;
    const auto decimal = parse_decimal(number);
    if (scale == 0 || !decimal)
        return std::nullopt;
    unsigned __int128 ns = static_cast<unsigned __int128>(decimal->mantissa) * scale;
    unsigned __int128 divisor = 1;
    for (unsigned i = 0; i < decimal->fraction_digits; ++i)
        divisor *= 10;
    ns = (ns + divisor / 2) / divisor;
    if (ns > static_cast<unsigned __int128>(std::numeric_limits<std::int64_t>::max()))
        return std::nullopt;
    return static_cast<std::int64_t>(ns);
}

} // namespace hitmap::locks
