#include "collector/locks/perf_lock_parser.hpp"

#include "collector/locks/errors.hpp"
#include "collector/locks/line_source.hpp"
#include "collector/locks/text_scan.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <fmt/format.h>
#include <limits>
#include <optional>
#include <string>
#include <utility>

namespace hitmap::locks {

namespace {

enum class Field { acquired, contended, avg_wait, wait_total, wait_max, wait_min };

constexpr std::array<std::pair<std::string_view, Field>, 6> kFieldTitles{{
    {"acquired", Field::acquired},
    {"contended", Field::contended},
    {"avg wait", Field::avg_wait},
    {"total wait", Field::wait_total},
    {"max wait", Field::wait_max},
    {"min wait", Field::wait_min},
}};

std::optional<Field> field_titled(std::string_view title) {
    for (const auto& [t, f] : kFieldTitles)
        if (t == title)
            return f;
    return std::nullopt;
}

std::string_view title(Field field) {
    for (const auto& [t, f] : kFieldTitles)
        if (f == field)
            return t;
    return {};
}

bool is_time(Field field) {
    return field != Field::acquired && field != Field::contended;
}

struct FieldColumn {
    Field field = Field::contended;
    bool raw_ns = false; // one word of nanoseconds ("(ns)" headers, CSV), not number + unit
};

// What one perf output's rows look like, from its header.
struct Layout {
    LockFormat format = LockFormat::unknown;
    std::vector<FieldColumn> fields;
    LockKey key = LockKey::lock_name;
    std::size_t key_columns = 0; // CSV: columns after the fields
    bool stacktrace = false;     // CSV -v: the last column holds the call stack
    std::string separator;       // CSV only
};

// Field titles from words[i], two-word titles included, each optionally followed by "(ns)"
// (perf lock report before 2022 printed raw nanoseconds).
std::vector<FieldColumn> read_field_titles(const std::vector<Word>& words, std::size_t& i) {
    std::vector<FieldColumn> fields;
    while (i < words.size()) {
        std::optional<Field> field;
        if (i + 1 < words.size())
            field = field_titled(fmt::format("{} {}", words[i].text, words[i + 1].text));
        if (field) {
            i += 2;
        } else if ((field = field_titled(words[i].text))) {
            i += 1;
        } else {
            break;
        }
        FieldColumn column{*field};
        if (i < words.size() && words[i].text == "(ns)") {
            column.raw_ns = true;
            ++i;
        }
        fields.push_back(column);
    }
    return fields;
}

std::optional<LockKey> key_titled(std::string_view titles) {
    if (titles == "type caller")
        return LockKey::caller;
    if (titles == "pid comm" || titles == "pid owner")
        return LockKey::task;
    if (titles == "address symbol")
        return LockKey::lock_address;
    if (titles == "cgroup")
        return LockKey::cgroup;
    return std::nullopt;
}

// " contended   total wait     max wait     avg wait         type   caller"
std::optional<Layout> contention_header(std::string_view text) {
    const auto words = split_words(text);
    std::size_t i = 0;
    Layout layout;
    layout.format = LockFormat::perf_lock_contention;
    layout.fields = read_field_titles(words, i);
    if (layout.fields.empty() || i == words.size())
        return std::nullopt;
    std::string titles;
    for (std::size_t j = i; j < words.size(); ++j)
        titles += fmt::format("{}{}", j == i ? "" : " ", words[j].text);
    const auto key = key_titled(titles);
    if (!key)
        return std::nullopt;
    layout.key = *key;
    return layout;
}

// "                Name   acquired  contended   avg wait (ns) total wait (ns) ..."
std::optional<Layout> report_header(std::string_view text) {
    const auto words = split_words(text);
    if (words.empty() || words.front().text != "Name")
        return std::nullopt;
    std::size_t i = 1;
    Layout layout;
    layout.format = LockFormat::perf_lock_report;
    layout.fields = read_field_titles(words, i);
    if (layout.fields.empty() || i != words.size())
        return std::nullopt;
    layout.key = LockKey::lock_name;
    return layout;
}

// Splits at `separator` into at most `n` parts; the last part keeps the rest of the line, so a
// separator inside a comm or a call stack does not shift columns.
std::vector<std::string_view> split_columns(std::string_view text, std::string_view separator,
                                            std::size_t n) {
    std::vector<std::string_view> parts;
    while (parts.size() + 1 < n) {
        const std::size_t at = text.find(separator);
        if (at == std::string_view::npos)
            break;
        parts.push_back(trim(text.substr(0, at)));
        text.remove_prefix(at + separator.size());
    }
    parts.push_back(trim(text));
    return parts;
}

// "# output: contended, total wait, max wait, avg wait, type, caller": each title is followed
// by the separator and a space.
Layout csv_header(const SourceLine& line, std::string_view rest) {
    std::string separator;
    for (const auto& [t, f] : kFieldTitles) {
        if (!rest.starts_with(t))
            continue;
        const std::string_view after = rest.substr(t.size());
        separator = std::string(after.substr(0, after.find(' ')));
    }
    if (separator.empty())
        throw LockParseError(line.number, "perf lock CSV header: cannot find the separator after "
                                          "the first field title");
    Layout layout;
    layout.format = LockFormat::perf_lock_contention_csv;
    layout.separator = separator;
    const auto titles = split_columns(rest, separator, std::string_view::npos);
    std::size_t i = 0;
    for (; i < titles.size(); ++i) {
        const auto field = field_titled(titles[i]);
        if (!field)
            break;
        layout.fields.push_back({*field, true});
    }
    std::string keys;
    for (std::size_t j = i; j < titles.size(); ++j)
        keys += fmt::format("{}{}", j == i ? "" : " ", titles[j]);
    layout.key_columns = titles.size() - i;
    if (keys == "type caller stacktrace") {
        layout.key = LockKey::caller;
        layout.stacktrace = true;
    } else if (keys == "address symbol type") {
        layout.key = LockKey::lock_address;
    } else if (const auto key = key_titled(keys); key && !layout.fields.empty()) {
        layout.key = *key;
    } else {
        throw LockParseError(line.number,
                             fmt::format("perf lock CSV header: unknown columns \"{}\"", keys));
    }
    return layout;
}

bool is_footer_line(std::string_view text) {
    if (text.starts_with("bad: ") || text.starts_with("bad rate: ") ||
        text.starts_with("histogram of "))
        return true;
    // " %10s: %d" lines of the failure histogram
    const auto words = split_words(text);
    return words.size() == 2 && words[0].text.ends_with(":") &&
           parse_signed(words[1].text).has_value();
}

// The output being read. (At namespace scope: clang cannot default-construct a nested class
// with member initializers inside std::optional before the enclosing class is complete.)
struct PerfTable {
    Layout layout;
    LockStatReport report;
};

class PerfLockParser {
public:
    PerfLockParser(std::string_view text, LockTableSink& sink)
        : lines_(text)
        , sink_(sink) {}

    void parse() {
        while (!lines_.done())
            handle(lines_.take());
        close_table();
    }

private:
    void handle(const SourceLine& line) {
        const std::string_view text = trim(line.text);
        if (text.empty())
            return;
        if (in_footer_ && is_footer_line(text))
            return;
        in_footer_ = false;
        if (text == "=== output for debug ===") {
            close_table();
            in_footer_ = true;
            return;
        }
        if (text.starts_with("# output:"))
            return start_table(csv_header(line, trim(text.substr(9))));
        if (text.starts_with("# debug:"))
            return close_table();
        // Both headers start with a title ("Name", "contended"...), rows of counts with a
        // digit: most lines of a large table are spared two header tests.
        if (!looks_numeric(text.substr(0, 1))) {
            if (auto layout = report_header(text))
                return start_table(std::move(*layout));
            if (auto layout = contention_header(text))
                return start_table(std::move(*layout));
        }
        if (text == "..." || text == "[...]") {
            if (table_)
                table_->report.excerpt = true;
            return;
        }
        if (table_ && handle_table_line(line, text))
            return;
        close_table();
        caption_ = std::string(text);
    }

    // Words a field column is made of: a count, a time, or a time's unit.
    static std::size_t field_words(const Layout& layout) {
        std::size_t n = 0;
        for (const auto& column : layout.fields)
            n += is_time(column.field) && !column.raw_ns ? 2 : 1;
        return n;
    }

    // A row when at least half of the words where its fields belong look like field values, so
    // that a garbled value is reported while command lines and mail text end the table.
    static bool mostly_values(const std::vector<std::string_view>& words) {
        const auto values = std::count_if(words.begin(), words.end(), [](std::string_view w) {
            return looks_numeric(w) || is_perf_time_unit(w);
        });
        return !words.empty() && 2 * static_cast<std::size_t>(values) >= words.size();
    }

    // False for prose, which ends the table.
    bool handle_table_line(const SourceLine& line, std::string_view text) {
        const Layout& layout = table_->layout;
        const std::size_t n = field_words(layout);
        std::vector<std::string_view> fields;
        fields.reserve(n + 1);
        switch (layout.format) {
        case LockFormat::perf_lock_contention_csv:
            for (const auto part : split_columns(text, layout.separator, n + 1))
                fields.push_back(part);
            fields.resize(std::min(fields.size(), n));
            if (!mostly_values(fields))
                return false;
            add(csv_row(line, text));
            return true;
        case LockFormat::perf_lock_report: {
            const auto words = split_words(text);
            for (std::size_t i = words.size() - std::min(words.size(), n); i < words.size(); ++i)
                fields.push_back(words[i].text);
            if (!mostly_values(fields))
                return false;
            add(report_row(line, text, words));
            return true;
        }
        default: {
            if (text.starts_with("0x")) {
                stack_frame(line, text);
                return true;
            }
            const auto words = split_words(text);
            for (std::size_t i = 0; i < std::min(words.size(), n); ++i)
                fields.push_back(words[i].text);
            if (!mostly_values(fields))
                return false;
            add(contention_row(line, text, words));
            return true;
        }
        }
    }

    void add(LockClassStats stats) {
        stats.source = table_->layout.format;
        stats.key = table_->layout.key;
        flush_class();
        pending_ = std::move(stats);
    }

    // One field value, from one word (counts, raw ns) or two (number and unit).
    static void store(LockCounters& c, Field field, std::uint64_t value) {
        const auto ns = static_cast<std::int64_t>(value);
        switch (field) {
        case Field::acquired:
            c.acquisitions = value;
            break;
        case Field::contended:
            c.contentions = value;
            break;
        case Field::avg_wait:
            c.wait.avg_ns = ns;
            break;
        case Field::wait_total:
            c.wait.total_ns = ns;
            break;
        case Field::wait_max:
            c.wait.max_ns = ns;
            break;
        case Field::wait_min:
            c.wait.min_ns = ns;
            break;
        }
    }

    static std::uint64_t one_word_value(const SourceLine& line, const FieldColumn& column,
                                        std::string_view word) {
        const auto value = parse_unsigned(word);
        if (!value ||
            (is_time(column.field) &&
             *value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())))
            throw LockParseError(line.number,
                                 fmt::format("{} is \"{}\", not {}", title(column.field), word,
                                             is_time(column.field) ? "nanoseconds" : "a count"));
        return *value;
    }

    static std::uint64_t time_value(const SourceLine& line, Field field, std::string_view number,
                                    std::string_view unit) {
        const auto ns = perf_time_ns(number, unit);
        if (!ns)
            throw LockParseError(line.number,
                                 fmt::format("{} is \"{} {}\", not a time like \"1.23 us\"",
                                             title(field), number, unit));
        return static_cast<std::uint64_t>(*ns);
    }

    // A row whose waits contradict each other: the longest longer than all together, or the
    // mean or the shortest outside [shortest, longest]. perf rounds each time on its own, but
    // monotonically, so a real row keeps min <= avg <= max <= total; one that does not was
    // edited or had its columns swapped, and stored it would pass for a measurement.
    static void check_possible(const SourceLine& line, const LockTimes& wait) {
        const auto at_most = [&](const std::optional<std::int64_t>& a, Field a_field,
                                 const std::optional<std::int64_t>& b, Field b_field) {
            if (a && b && *a > *b)
                throw LockParseError(line.number,
                                     fmt::format("{} {} ns is more than {} {} ns, which no lock "
                                                 "can have (columns swapped?)",
                                                 title(a_field), *a, title(b_field), *b));
        };
        at_most(wait.min_ns, Field::wait_min, wait.avg_ns, Field::avg_wait);
        at_most(wait.min_ns, Field::wait_min, wait.max_ns, Field::wait_max);
        at_most(wait.avg_ns, Field::avg_wait, wait.max_ns, Field::wait_max);
        at_most(wait.max_ns, Field::wait_max, wait.total_ns, Field::wait_total);
        at_most(wait.avg_ns, Field::avg_wait, wait.total_ns, Field::wait_total);
    }

    static void place(LockClassStats& stats, const LockCounters& counters) {
        // lockdep's split: read acquisitions apart from exclusive/write ones.
        if (stats.lock_type && stats.lock_type->ends_with(":R"))
            stats.read = counters;
        else
            stats.write = counters;
    }

    static void missing(const SourceLine& line, std::string_view what) {
        throw LockParseError(line.number, fmt::format("row ends before its {} column", what));
    }

    // Fields left to right, then the key columns: "  %10s   %s" (type, caller), "  %10d   %s"
    // (pid, comm), "  %016llx   %s (%s)" (address, symbol, type) or "  %s" (cgroup).
    // `words` are the text's, split once by handle_table_line.
    LockClassStats contention_row(const SourceLine& line, std::string_view text,
                                  const std::vector<Word>& words) const {
        const Layout& layout = table_->layout;
        std::size_t i = 0;
        LockCounters counters;
        for (const auto& column : layout.fields) {
            if (i >= words.size() || (is_time(column.field) && i + 1 >= words.size()))
                missing(line, title(column.field));
            if (is_time(column.field)) {
                store(counters, column.field,
                      time_value(line, column.field, words[i].text, words[i + 1].text));
                i += 2;
            } else {
                store(counters, column.field, one_word_value(line, column, words[i].text));
                i += 1;
            }
        }
        LockClassStats stats;
        if (i >= words.size())
            missing(line, to_string(layout.key));
        const std::string_view rest = trim(text.substr(words[i].end()));
        switch (layout.key) {
        case LockKey::caller:
            stats.lock_type = std::string(words[i].text);
            if (rest.empty())
                missing(line, "caller");
            stats.name = std::string(rest);
            break;
        case LockKey::task:
            stats.pid = parse_signed(words[i].text);
            if (!stats.pid)
                throw LockParseError(line.number,
                                     fmt::format("pid is \"{}\", not a number", words[i].text));
            stats.name = std::string(rest);
            break;
        case LockKey::lock_address: {
            stats.lock_address = parse_hex(words[i].text);
            const std::size_t open = rest.rfind('(');
            if (!stats.lock_address || open == std::string_view::npos || !rest.ends_with(")"))
                throw LockParseError(line.number,
                                     "a lock-address row is \"address symbol (type)\"");
            stats.lock_type = std::string(rest.substr(open + 1, rest.size() - open - 2));
            const std::string_view symbol = trim(rest.substr(0, open));
            // An unnamed instance (a lock inside a dynamically allocated object) is known by its
            // address only.
            stats.name = std::string(symbol.empty() ? words[i].text : symbol);
            break;
        }
        default: // cgroup: the path is the rest of the line
            stats.name = std::string(trim(text.substr(words[i].begin)));
            break;
        }
        check_possible(line, counters.wait);
        place(stats, counters);
        return stats;
    }

    // perf lock report: the name (right-aligned in 20, may contain spaces) then the fields, so
    // the fields are read from the right.
    LockClassStats report_row(const SourceLine& line, std::string_view text,
                              const std::vector<Word>& words) const {
        const auto& fields = table_->layout.fields;
        std::size_t j = words.size();
        LockCounters counters;
        for (auto it = fields.rbegin(); it != fields.rend(); ++it) {
            const bool two_words = is_time(it->field) && !it->raw_ns;
            if (j < (two_words ? 2u : 1u))
                missing(line, title(it->field));
            if (two_words) {
                store(counters, it->field,
                      time_value(line, it->field, words[j - 2].text, words[j - 1].text));
                j -= 2;
            } else {
                store(counters, it->field, one_word_value(line, *it, words[j - 1].text));
                j -= 1;
            }
        }
        LockClassStats stats;
        stats.name = std::string(trim(text.substr(0, j < words.size() ? words[j].begin : 0)));
        check_possible(line, counters.wait);
        place(stats, counters);
        return stats;
    }

    LockClassStats csv_row(const SourceLine& line, std::string_view text) {
        const Layout& layout = table_->layout;
        const std::size_t n = layout.fields.size() + layout.key_columns;
        const auto parts = split_columns(text, layout.separator, n);
        if (parts.size() != n)
            throw LockParseError(line.number,
                                 fmt::format("CSV row has {} of the {} columns", parts.size(), n));
        LockCounters counters;
        for (std::size_t i = 0; i < layout.fields.size(); ++i)
            store(counters, layout.fields[i].field,
                  one_word_value(line, layout.fields[i], parts[i]));
        const auto keys = std::vector<std::string_view>(
            parts.begin() + static_cast<long>(layout.fields.size()), parts.end());
        LockClassStats stats;
        switch (layout.key) {
        case LockKey::caller:
            stats.lock_type = std::string(keys[0]);
            stats.name = std::string(keys[1]);
            if (layout.stacktrace)
                stats.stack = csv_stack(line, keys[2]);
            break;
        case LockKey::task:
            stats.pid = parse_signed(keys[0]);
            if (!stats.pid)
                throw LockParseError(line.number,
                                     fmt::format("pid is \"{}\", not a number", keys[0]));
            stats.name = std::string(keys[1]);
            break;
        case LockKey::lock_address:
            stats.lock_address = parse_hex(keys[0]);
            if (!stats.lock_address)
                throw LockParseError(line.number,
                                     fmt::format("lock address is \"{}\", not hex", keys[0]));
            stats.name = std::string(keys[1].empty() ? keys[0] : keys[1]);
            stats.lock_type = std::string(keys[2]);
            break;
        default:
            stats.name = std::string(keys[0]);
            break;
        }
        if (stats.name.empty())
            missing(line, to_string(layout.key));
        check_possible(line, counters.wait);
        place(stats, counters);
        return stats;
    }

    // "0xffffffff9d0401e4 _raw_spin_lock_irqsave+0x44: 0xffffffff9c738114 rcu_core+0xd4: ..."
    std::vector<StackFrame> csv_stack(const SourceLine& line, std::string_view text) {
        std::vector<StackFrame> frames;
        std::size_t start = 0;
        while (start <= text.size()) {
            const std::size_t colon = std::min(text.find(':', start), text.size());
            const std::string_view frame = trim(text.substr(start, colon - start));
            start = colon + 1;
            if (frame == "...") {
                table_->report.excerpt = true;
                continue;
            }
            frames.push_back(parse_frame(line, frame));
        }
        return frames;
    }

    static StackFrame parse_frame(const SourceLine& line, std::string_view text) {
        const auto words = split_words(text);
        const auto address = words.empty() ? std::nullopt : parse_hex(words[0].text);
        if (!address || words.size() < 2)
            throw LockParseError(line.number, fmt::format("call-stack frame \"{}\" is not "
                                                          "\"0xaddress symbol+0xoff\"",
                                                          text));
        return {*address, std::string(trim(text.substr(words[1].begin)))};
    }

    // "\t\t\t0xffffffff9d0407c0  _raw_spin_lock+0x30" under a -v row
    void stack_frame(const SourceLine& line, std::string_view text) {
        if (!pending_)
            throw LockParseError(line.number, "call-stack line before any row");
        pending_->stack.push_back(parse_frame(line, text));
    }

    void start_table(Layout layout) {
        close_table();
        table_.emplace();
        table_->report.format = layout.format;
        table_->report.has_header = true;
        table_->report.caption = std::move(caption_);
        caption_.reset();
        table_->layout = std::move(layout);
        sink_.begin_table(table_->report);
    }

    // The last row is complete once the next row or the end of its table is seen: -v stack
    // lines follow their row.
    void flush_class() {
        if (pending_)
            sink_.add_class(std::move(*pending_));
        pending_.reset();
    }

    void close_table() {
        if (!table_)
            return;
        flush_class();
        sink_.end_table(table_->report);
        table_.reset();
    }

    LineSource lines_;
    LockTableSink& sink_;
    std::optional<PerfTable> table_;
    std::optional<LockClassStats> pending_; // the table's last row, not yet handed to sink_
    std::optional<std::string> caption_;
    bool in_footer_ = false;
};

} // namespace

std::optional<LockFormat> perf_lock_line_format(std::string_view line) {
    const std::string_view text = trim(line);
    if (text.starts_with("# output:"))
        return LockFormat::perf_lock_contention_csv;
    if (report_header(text))
        return LockFormat::perf_lock_report;
    if (contention_header(text))
        return LockFormat::perf_lock_contention;
    return std::nullopt;
}

void parse_perf_lock(std::string_view text, LockTableSink& sink) {
    PerfLockParser(text, sink).parse();
}

std::vector<LockStatReport> parse_perf_lock(std::string_view text) {
    CollectingSink all;
    parse_perf_lock(text, all);
    return std::move(all.reports);
}

} // namespace hitmap::locks
