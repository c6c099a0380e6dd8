#include "collector/locks/lockstat_parser.hpp"

#include "collector/locks/errors.hpp"
#include "collector/locks/line_source.hpp"
#include "collector/locks/lockstat_layout.hpp"
#include "collector/locks/text_scan.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <optional>
#include <string>

namespace hitmap::locks {

namespace {

// Lockdep keeps LOCKSTAT_POINTS = 4 contention and 4 contending points per class.
constexpr std::size_t kMaxPoints = 4;
// Class names are at most 37 characters plus "-W", so a longer dash line is a header rule and a
// shorter one a point-list separator (as long as the name).
constexpr std::size_t kLongestSeparator = kNameWidth + 1;

enum class Side { whole, write, read };

// A stat row cut into its name and the words after the colon.
struct RowText {
    std::string name; // without the colon and the -W/-R suffix
    Side side = Side::whole;
    std::vector<std::string> values;
};

bool made_of(std::string_view s, char c) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [c](char x) { return x == c; });
}

bool is_numeric_line(std::string_view text) {
    const auto words = split_words(text);
    return !words.empty() && std::all_of(words.begin(), words.end(),
                                         [](const Word& w) { return looks_numeric(w.text); });
}

// A wrapped row's next piece: starts with a number and is neither a row nor a call site. Its
// words are decoded strictly afterwards, so garbage there is reported, not taken for prose.
bool is_row_continuation(std::string_view text) {
    const auto words = split_words(text);
    return !words.empty() && looks_numeric(words.front().text) &&
           text.find(':') == std::string_view::npos && text.find("[<") == std::string_view::npos;
}

// Words of a header line: column titles only ("class name" counts as one).
std::optional<std::vector<LockstatColumn>> header_columns(std::string_view text) {
    const auto words = split_words(text);
    std::vector<LockstatColumn> columns;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (words[i].text == "class" && i + 1 < words.size() && words[i + 1].text == "name") {
            columns.push_back(LockstatColumn::class_name);
            ++i;
        } else if (const auto column = column_titled(words[i].text)) {
            columns.push_back(*column);
        } else {
            return std::nullopt;
        }
    }
    return columns;
}

bool is_header_line(std::string_view text) {
    const auto columns = header_columns(text);
    return columns && columns->size() >= 2;
}

bool is_header_continuation(std::string_view text) {
    const auto columns = header_columns(text);
    return columns && !columns->empty();
}

// Values are every word after the last colon, numeric-looking or not, so that a garbled column
// is reported rather than taken for prose.
std::optional<RowText> split_named_row(std::string_view text) {
    const auto words = split_words(text);
    for (std::size_t i = words.size(); i-- > 0;) {
        const std::string_view word = words[i].text;
        const std::size_t colon = word.rfind(':');
        if (colon == std::string_view::npos)
            continue;
        RowText row;
        if (colon + 1 < word.size()) {
            // A con-bounces value wider than its 14 columns touches the colon: "name:123…".
            const std::string_view glued = word.substr(colon + 1);
            if (!looks_numeric(glued))
                return std::nullopt;
            row.values.emplace_back(glued);
        }
        for (std::size_t j = i + 1; j < words.size(); ++j)
            row.values.emplace_back(words[j].text);
        std::string_view name = trim(text.substr(0, words[i].begin + colon));
        if (name.size() >= 2 && name[name.size() - 2] == '-' &&
            (name.back() == 'W' || name.back() == 'R')) {
            row.side = name.back() == 'W' ? Side::write : Side::read;
            name = trim(name.substr(0, name.size() - 2));
        }
        row.name = std::string(name);
        return row;
    }
    return std::nullopt;
}

RowText split_unnamed_row(std::string_view text) {
    RowText row;
    for (const auto& word : split_words(text))
        row.values.emplace_back(word.text);
    return row;
}

bool any_numeric(const RowText& row) {
    return std::any_of(row.values.begin(), row.values.end(),
                       [](const std::string& v) { return looks_numeric(v); });
}

bool decodable(const RowText& row, const std::vector<LockstatColumn>& columns) {
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const bool ok = is_time_column(columns[i]) ? decode_lockstat_time(row.values[i]).kind !=
                                                         LockstatTime::Kind::malformed
                                                   : parse_unsigned(row.values[i]).has_value();
        if (!ok)
            return false;
    }
    return true;
}

// A row that can start a table without a header: complete and valid.
std::optional<LockFormat> headerless_row_format(const RowText& row) {
    const std::size_t n = row.values.size();
    if ((n != 10 && n != 12) || !decodable(row, n == 10 ? v03_columns() : v04_columns()))
        return std::nullopt;
    return n == 10 ? LockFormat::lockstat_v03 : LockFormat::lockstat_v04;
}

// "&type->s_umount_key#4/1": lockdep appends "#<name_version>" then "/<subclass>", each in a
// 3-byte buffer, so each suffix is one digit.
std::optional<unsigned> take_suffix(std::string_view& name, char mark) {
    if (name.size() < 3 || name[name.size() - 2] != mark)
        return std::nullopt;
    const char digit = name.back();
    if (digit < '0' || digit > '9')
        return std::nullopt;
    name.remove_suffix(2);
    return static_cast<unsigned>(digit - '0');
}

LockClassStats new_class(const std::string& name) {
    LockClassStats stats;
    stats.name = name;
    std::string_view rest = stats.name;
    stats.subclass = take_suffix(rest, '/');
    stats.name_version = take_suffix(rest, '#');
    return stats;
}

// lockdep's average when the source prints none: nr ? total / nr : 0.
void fill_average(LockTimes& times, const std::optional<std::uint64_t>& count) {
    if (times.avg_ns || !times.total_ns || !count)
        return;
    times.avg_ns = lockdep_average(*times.total_ns, *count);
}

// The table being read. (At namespace scope: clang cannot default-construct a nested class
// with member initializers inside std::optional before the enclosing class is complete.)
struct Table {
    LockStatReport report;
    bool version_line = false;
    std::vector<LockstatColumn> columns; // numeric columns; empty until known
    bool named = true;                   // false for a cropped header without "class name"
    bool in_body = false;                // a row has been read
    bool class_open = false;             // the last class may still get point lists
    Side last_side = Side::whole;
    int point_lists = 0;
    std::size_t points_in_list = 0;
    std::size_t separator_line = 0; // of the current point list
};

class LockStatParser {
public:
    explicit LockStatParser(std::string_view text)
        : lines_(text) {}

    std::vector<LockStatReport> parse() {
        while (!lines_.done())
            handle(lines_.take());
        close_table();
        return std::move(reports_);
    }

private:
    void handle(SourceLine line) {
        const std::string_view text = trim(line.text);
        if (text.empty())
            return;
        if (text.starts_with("lock_stat version"))
            return on_version(line, trim(text.substr(17)));
        // The kernel's warning has no colon, so it is never a row named "*WARNING*…".
        if (text.starts_with("*WARNING*") && text.find(':') == std::string_view::npos && table_ &&
            !table_->in_body) {
            table_->report.lockdep_disabled = true;
            return;
        }
        if (made_of(text, '-') && text.size() > kLongestSeparator)
            return on_rule();
        if (made_of(text, '-') && table_) // outside a table: a mail signature's "--"
            return on_separator(line);
        if (made_of(text, '.') && text.size() > kLongestSeparator) {
            // Ends a class. Outside a table it is the tail of a cropped listing: nothing to do.
            expect_points_after_separator();
            if (table_)
                table_->class_open = false;
            return;
        }
        if (text == "..." || text == "[...]") {
            if (table_)
                table_->report.excerpt = true;
            return;
        }
        if (is_header_line(text))
            return on_header(std::move(line));
        if (const std::size_t open = text.find("[<"); open != std::string_view::npos) {
            // A point line has the class name and a count before "[<"; a kernel backtrace
            // quoted in the mail has not, and outside a table nothing is a point line.
            if (table_ && !trim(text.substr(0, open)).empty())
                return on_point(line);
            return on_prose(text);
        }
        if (on_row(line))
            return;
        // on_row may have joined continuation lines: `text` no longer points into line.text.
        const std::string_view joined = trim(line.text);
        if (table_ && is_wrapped_point(joined))
            return on_point(line);
        if (table_ && table_->named && is_numeric_line(joined))
            throw LockParseError(line.number, "numbers without a class name before them (is the "
                                              "first line of a wrapped row missing?)");
        on_prose(joined);
    }

    void on_version(const SourceLine& line, std::string_view version) {
        if (version != "0.3" && version != "0.4")
            throw LockParseError(
                line.number,
                fmt::format("lock_stat version {} is not supported (0.3 and 0.4 are)", version));
        close_table();
        start_table();
        table_->version_line = true;
        table_->report.version = std::string(version);
        table_->columns = version == "0.3" ? v03_columns() : v04_columns();
    }

    void on_rule() {
        // The rule above a header. After rows it starts another snapshot pasted without its
        // version line.
        if (!table_ || table_->in_body) {
            close_table();
            start_table();
        }
    }

    void on_header(SourceLine line) {
        while (lines_.join_next_if(line, is_header_continuation)) {
        }
        const auto columns = *header_columns(line.text);
        if (!table_ || table_->in_body || table_->report.has_header) {
            close_table();
            start_table();
        }
        Table& table = *table_;
        table.report.has_header = true;
        table.named = columns.front() == LockstatColumn::class_name;
        table.columns.clear();
        for (std::size_t i = 0; i < columns.size(); ++i) {
            if (columns[i] == LockstatColumn::class_name && i > 0)
                throw LockParseError(line.number, "\"class name\" must be the first column");
            if (std::count(columns.begin(), columns.end(), columns[i]) > 1)
                throw LockParseError(line.number,
                                     fmt::format("column \"{}\" appears twice", title(columns[i])));
            if (columns[i] != LockstatColumn::class_name)
                table.columns.push_back(columns[i]);
        }
    }

    void on_separator(const SourceLine& line) {
        if (!table_ || !table_->class_open)
            throw LockParseError(line.number,
                                 "a dash separator must follow a lock class row or its points");
        expect_points_after_separator();
        if (table_->point_lists == 2)
            throw LockParseError(line.number, "a third point list for one class (lock_stat has "
                                              "contention and contending points only)");
        ++table_->point_lists;
        table_->points_in_list = 0;
        table_->separator_line = line.number;
    }

    // The kernel prints a dash line only before a non-empty list; with an empty first list the
    // contending points would pass for contention points.
    void expect_points_after_separator() const {
        if (table_ && table_->class_open && table_->point_lists > 0 && table_->points_in_list == 0)
            throw LockParseError(table_->separator_line,
                                 "a dash separator without call-site lines after it");
    }

    bool is_wrapped_point(std::string_view text) const {
        const auto words = split_words(text);
        return words.size() >= 2 && parse_unsigned(words.back().text) && !lines_.done() &&
               trim(lines_.peek().text).starts_with("[<");
    }

    void on_point(SourceLine line) {
        if (line.text.find("[<") == std::string::npos)
            lines_.join_next_if(line, [](std::string_view t) { return trim(t).starts_with("[<"); });
        if (!table_ || !table_->class_open || table_->point_lists == 0)
            throw LockParseError(line.number, "a call-site line must follow a class row and a "
                                              "dash separator");
        const std::string_view text = line.text;
        const std::size_t open = text.find("[<");
        const std::size_t close = text.find(">]", open);
        if (close == std::string_view::npos)
            throw LockParseError(line.number, "call site \"[<\" without its closing \">]\"");
        const std::string_view head = text.substr(0, open);
        const auto words = split_words(head);
        const auto count = words.empty() ? std::nullopt : parse_unsigned(words.back().text);
        if (!count)
            throw LockParseError(line.number, "a call-site line needs a count before \"[<\"");
        const std::string_view name = trim(head.substr(0, words.back().begin));
        LockClassStats& stats = table_->report.classes.back();
        if (name != stats.name)
            throw LockParseError(
                line.number,
                fmt::format("call-site line names \"{}\" but the class above is \"{}\"", name,
                            stats.name));
        LockPoint point;
        point.count = *count;
        point.address = parse_hex(text.substr(open + 2, close - open - 2));
        point.symbol = std::string(trim(text.substr(close + 2)));
        if (point.symbol.empty())
            throw LockParseError(line.number, "call-site line without a symbol after \"[<…>]\"");
        if (table_->points_in_list == kMaxPoints)
            throw LockParseError(line.number, "more than 4 points in one list (lockdep keeps 4)");
        ++table_->points_in_list;
        auto& points = table_->point_lists == 1 ? stats.contention_points : stats.contending_points;
        points.push_back(std::move(point));
    }

    // False when the line is prose after all (no colon, no numbers).
    bool on_row(SourceLine& line) {
        const bool named = !table_ || table_->named;
        const auto split = [&]() -> std::optional<RowText> {
            if (named)
                return split_named_row(line.text);
            return split_unnamed_row(line.text);
        };
        std::optional<RowText> row = split();
        if (!row || (!named && !looks_numeric(row->values.front())))
            return false;
        const std::size_t wanted = table_ && !table_->columns.empty() ? table_->columns.size() : 12;
        while (row->values.size() < wanted && lines_.join_next_if(line, is_row_continuation))
            row = split();
        if (row->values.empty() || !any_numeric(*row))
            return false;
        if (!table_) {
            // Outside a table only a complete, valid row starts one (grep'ed rows, a headerless
            // paste); anything less is prose that happens to contain a colon.
            if (!headerless_row_format(*row))
                return false;
            start_table();
        }
        add_row(line, *row);
        return true;
    }

    void add_row(const SourceLine& line, const RowText& row) {
        Table& table = *table_;
        if (table.columns.empty()) {
            if (row.values.size() != 10 && row.values.size() != 12)
                throw LockParseError(
                    line.number, fmt::format("a lock_stat row has 10 (v0.3) or 12 (v0.4) numeric "
                                             "columns; this one has {}",
                                             row.values.size()));
            table.columns = row.values.size() == 10 ? v03_columns() : v04_columns();
        }
        if (row.values.size() != table.columns.size())
            throw LockParseError(line.number,
                                 fmt::format("row \"{}\" has {} of the {} numeric columns",
                                             row.name, row.values.size(), table.columns.size()));
        expect_points_after_separator();
        const LockCounters counters = decode(line, row);
        table.in_body = true;
        auto& classes = table.report.classes;
        if (row.side == Side::read && table.class_open && table.last_side == Side::write &&
            table.point_lists == 0 && classes.back().name == row.name && !classes.back().read) {
            classes.back().read = counters;
        } else {
            LockClassStats stats = new_class(row.name);
            (row.side == Side::read ? stats.read : stats.write) = counters;
            classes.push_back(std::move(stats));
            table.class_open = true;
            table.point_lists = 0;
        }
        table.last_side = row.side;
    }

    LockCounters decode(const SourceLine& line, const RowText& row) {
        LockCounters c;
        const auto& columns = table_->columns;
        for (std::size_t i = 0; i < columns.size(); ++i) {
            const std::string& value = row.values[i];
            if (is_time_column(columns[i]))
                time_slot(c, columns[i]) = decode_time(line, columns[i], value);
            else
                count_slot(c, columns[i]) = decode_count(line, columns[i], value);
        }
        fill_average(c.wait, c.contentions);
        fill_average(c.hold, c.acquisitions);
        return c;
    }

    std::optional<std::int64_t> decode_time(const SourceLine& line, LockstatColumn column,
                                            const std::string& value) {
        const LockstatTime time = decode_lockstat_time(value);
        switch (time.kind) {
        case LockstatTime::Kind::value:
            return time.ns;
        case LockstatTime::Kind::truncated:
            table_->report.notes.push_back(
                fmt::format("line {}: {} \"{}\" was cut to 14 digits by an old kernel's 15-byte "
                            "buffer; stored as absent",
                            line.number, title(column), value));
            return std::nullopt;
        case LockstatTime::Kind::negative:
            table_->report.notes.push_back(
                fmt::format("line {}: {} \"{}\" is negative (a kernel formatting artefact); "
                            "stored as absent",
                            line.number, title(column), value));
            return std::nullopt;
        case LockstatTime::Kind::malformed:
            break;
        }
        throw LockParseError(line.number,
                             fmt::format("{} is \"{}\", not a time in microseconds like 12.34",
                                         title(column), value));
    }

    static std::uint64_t decode_count(const SourceLine& line, LockstatColumn column,
                                      const std::string& value) {
        if (const auto count = parse_unsigned(value))
            return *count;
        throw LockParseError(line.number,
                             fmt::format("{} is \"{}\", not a count", title(column), value));
    }

    void on_prose(std::string_view text) {
        close_table();
        caption_ = std::string(text);
    }

    void start_table() {
        table_.emplace();
        table_->report.caption = std::move(caption_);
        caption_.reset();
    }

    void close_table() {
        if (!table_)
            return;
        expect_points_after_separator();
        Table table = std::move(*table_);
        table_.reset();
        LockStatReport& report = table.report;
        // Rows make a table, or a version line: /proc/lock_stat prints no row while nothing was
        // counted (lock_stat off or just cleared: seq_stats() in kernel/locking/lockdep_proc.c
        // prints a class only once it has hold times). A lone rule, or a header quoted in a mail
        // before the caption of its table, is not one.
        if (!table.version_line && report.classes.empty())
            return;
        if (report.version.empty()) {
            const auto& c = table.columns;
            const bool averages =
                std::find(c.begin(), c.end(), LockstatColumn::waittime_avg) != c.end() ||
                std::find(c.begin(), c.end(), LockstatColumn::holdtime_avg) != c.end();
            report.version = averages || c.empty() ? "0.4" : "0.3";
        }
        report.format =
            report.version == "0.3" ? LockFormat::lockstat_v03 : LockFormat::lockstat_v04;
        for (auto& stats : report.classes)
            stats.source = report.format;
        reports_.push_back(std::move(report));
    }

    LineSource lines_;
    std::optional<Table> table_;
    std::optional<std::string> caption_;
    std::vector<LockStatReport> reports_;
};

} // namespace

std::optional<LockFormat> lockstat_line_format(std::string_view line) {
    const std::string_view text = trim(line);
    if (text == "lock_stat version 0.3")
        return LockFormat::lockstat_v03;
    if (text == "lock_stat version 0.4")
        return LockFormat::lockstat_v04;
    if (const auto columns = header_columns(text); columns && columns->size() >= 2) {
        const bool averages = std::any_of(columns->begin(), columns->end(), [](auto c) {
            return c == LockstatColumn::waittime_avg || c == LockstatColumn::holdtime_avg;
        });
        return averages ? LockFormat::lockstat_v04 : LockFormat::lockstat_v03;
    }
    if (const auto row = split_named_row(text))
        return headerless_row_format(*row);
    return std::nullopt;
}

std::vector<LockStatReport> parse_lock_stat(std::string_view text) {
    return LockStatParser(text).parse();
}

} // namespace hitmap::locks
