#include "collector/perfc2c/report_parser.hpp"

#include "collector/locks/errors.hpp"
#include "collector/locks/line_source.hpp"
#include "collector/locks/lock_import.hpp"
#include "collector/locks/text_scan.hpp"
#include "collector/perfc2c/column_header.hpp"
#include "collector/perfc2c/errors.hpp"
#include "collector/perfc2c/text_kind.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <unordered_set>

namespace hitmap::perfc2c {

namespace {

using locks::is_blank;
using locks::SourceLine;
using locks::split_words;
using locks::trim;
using locks::Word;

constexpr std::string_view kTraceTitle = "Trace Event Information";
constexpr std::string_view kSharedTitle = "Global Shared Cache Line Event Information";
constexpr std::string_view kDetailsTitle = "c2c details";
constexpr std::string_view kTableTitle = "Shared Data Cache Line Table";
constexpr std::string_view kParetoTitle = "Shared Cache Line Distribution Pareto";

// perf's section rules are 49 '='; its Pareto banners are framed by 60-70 '-'.
bool is_rule(std::string_view s, char c) {
    s = trim(s);
    return s.size() >= 20 && s.find_first_not_of(c) == std::string_view::npos;
}

struct Section {
    std::string title;
    std::size_t title_line = 0;     // in the text
    std::size_t begin = 0, end = 0; // body: indices into the lines
};

std::vector<Section> find_sections(const std::vector<SourceLine>& lines) {
    std::vector<Section> sections;
    for (std::size_t i = 0; i + 2 < lines.size(); ++i) {
        if (!is_rule(lines[i].text, '=') || is_blank(lines[i + 1].text) ||
            !is_rule(lines[i + 2].text, '='))
            continue;
        if (!sections.empty())
            sections.back().end = i;
        sections.push_back({std::string(trim(lines[i + 1].text)), lines[i + 1].number, i + 3, 0});
        i += 2;
    }
    if (!sections.empty())
        sections.back().end = lines.size();
    return sections;
}

std::uint64_t count(const SourceLine& l, std::string_view word, std::string_view what) {
    if (const auto v = locks::parse_unsigned(word))
        return *v;
    throw C2cParseError(l.number, fmt::format("{} '{}' is not a count", what, word));
}

std::uint64_t hex_address(const SourceLine& l, std::string_view word, std::string_view what) {
    if (word.starts_with("0x"))
        if (const auto v = locks::parse_hex(word))
            return *v;
    throw C2cParseError(l.number, fmt::format("{} '{}' is not a hex address", what, word));
}

std::optional<double> decimal(std::string_view word) {
    double v = 0;
    const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
    if (ec != std::errc() || end != word.data() + word.size() || !std::isfinite(v) || v < 0)
        return std::nullopt;
    return v;
}

double percent(const SourceLine& l, std::string_view word, std::string_view what) {
    if (word.ends_with('%'))
        if (const auto v = decimal(word.substr(0, word.size() - 1)); v && *v <= 100.0)
            return *v;
    throw C2cParseError(l.number, fmt::format("{} '{}' is not a percentage", what, word));
}

// "  Label : value": the label before the first colon (event names hold colons: dummy:HG).
struct LabelValue {
    std::string_view label, value;
};

LabelValue label_value(const SourceLine& l, std::string_view section) {
    const std::size_t colon = l.text.find(':');
    if (colon == std::string::npos)
        throw C2cParseError(l.number,
                            fmt::format("expected 'label : value' in the {} section", section));
    const std::string_view text = l.text;
    return {trim(text.substr(0, colon)), trim(text.substr(colon + 1))};
}

void parse_stats(const std::vector<SourceLine>& lines, const Section& s, std::vector<Stat>& out) {
    for (std::size_t i = s.begin; i < s.end; ++i) {
        const SourceLine& l = lines[i];
        if (is_blank(l.text))
            continue;
        const auto [label, value] = label_value(l, s.title);
        if (label.empty())
            throw C2cParseError(l.number,
                                fmt::format("a value without a label in the {} section", s.title));
        // builtin-c2c.c print_c2c__display_stats prints "LLC Misses to ..." as a share of the
        // LLC misses with %10.1f%%: with none, 0/0 prints "-nan%". A share of nothing is no
        // value, so no statistic (not 0).
        if (value == "-nan%" || value == "nan%")
            continue;
        Stat stat{l.number, std::string(label), 0, value.ends_with('%')};
        if (stat.percent)
            stat.value = percent(l, value, label);
        else
            stat.value = static_cast<double>(count(l, value, label));
        out.push_back(std::move(stat));
    }
}

void parse_details(const std::vector<SourceLine>& lines, const Section& s, C2cReport& report) {
    std::string_view last_label;
    for (std::size_t i = s.begin; i < s.end; ++i) {
        const SourceLine& l = lines[i];
        if (is_blank(l.text))
            continue;
        const auto [label, value] = label_value(l, s.title);
        if (label == "Events" || (label.empty() && last_label == "Events")) {
            report.details.events.emplace_back(value); // one line per event
        } else if (label == "Cachelines sort on") {
            report.details.sort_on = std::string(value);
        } else if (label == "Cacheline data grouping" || label == "Cacheline data groupping") {
            report.details.grouping = std::string(value); // the 2016 build's spelling
        } else if (label.empty()) {
            throw C2cParseError(l.number, "a continuation line that continues no event list");
        } else {
            report.notes.push_back(
                {l.number, fmt::format("c2c details line '{}' is not imported", label)});
        }
        if (!label.empty())
            last_label = label;
    }
}

// The table header's three lines, the dot line last; rows follow it.
struct Header {
    std::vector<Column> columns;
    std::size_t rows_begin = 0; // index of the first line after the dot line
    std::size_t dots_line = 0;  // in the text
};

// The line with its '#' blanked, so columns keep their positions.
std::string unhashed(const SourceLine& l) {
    std::string s = l.text;
    if (const std::size_t hash = s.find('#'); hash != std::string::npos)
        s[hash] = ' ';
    return s;
}

bool is_hash_line(std::string_view s) {
    return trim(s).starts_with('#');
}

Header read_header(const std::vector<SourceLine>& lines, const Section& s) {
    for (std::size_t i = s.begin; i < s.end; ++i) {
        const SourceLine& l = lines[i];
        if (is_blank(l.text))
            continue;
        if (!is_hash_line(l.text))
            throw C2cParseError(l.number,
                                fmt::format("a row before the {} section's header", s.title));
        const std::string rest = unhashed(l);
        if (rest.find('.') == std::string::npos ||
            rest.find_first_not_of(". \t") != std::string::npos)
            continue;
        if (i < s.begin + 2 || !is_hash_line(lines[i - 1].text) || !is_hash_line(lines[i - 2].text))
            throw C2cParseError(l.number,
                                fmt::format("the {} section's header lacks its group and name "
                                            "lines",
                                            s.title));
        return {read_columns(unhashed(lines[i - 2]), unhashed(lines[i - 1]), rest, l.number), i + 1,
                l.number};
    }
    throw C2cParseError(s.title_line, fmt::format("the {} section has no header", s.title));
}

// ---- Shared Data Cache Line Table -----------------------------------------------------------

enum class T {
    index,
    address,
    node,
    pa_count,
    costly,
    tot_hitm,
    lcl_hitm,
    rmt_hitm,
    tot_peer,
    lcl_peer,
    rmt_peer,
    records,
    loads,
    stores,
    st_l1hit,
    st_l1miss,
    st_na,
    fb,
    l1,
    l2,
    llc_hit,
    llc_lcl_hitm,
    rmt_hit,
    rmt_rmt_hitm,
    dram_lcl,
    dram_rmt,
    llc_miss,
    unknown,
    count_
};

T table_column(const Column& c) {
    const std::string_view g = c.group, n = c.name;
    if (n == "Index")
        return T::index;
    if (n == "Cacheline" || (g == "Cacheline" && n == "Address"))
        return T::address;
    if (g == "Cacheline")
        return n == "Node" ? T::node : n == "PA cnt" ? T::pa_count : T::unknown;
    if ((n == "Hitm" && (g == "Tot" || g == "Rmt" || g == "Lcl")) || (g == "Peer" && n == "Snoop"))
        return T::costly;
    if (g == "LLC Load Hitm" || g == "Load Hitm") // 2016, then current
        return n == "Total"                     ? T::tot_hitm
               : (n == "Lcl" || n == "LclHitm") ? T::lcl_hitm
               : (n == "Rmt" || n == "RmtHitm") ? T::rmt_hitm
                                                : T::unknown;
    if (g == "Load Peer")
        return n == "Total"    ? T::tot_peer
               : n == "Local"  ? T::lcl_peer
               : n == "Remote" ? T::rmt_peer
                               : T::unknown;
    if (g == "Total")
        return n == "records"  ? T::records
               : n == "Loads"  ? T::loads
               : n == "Stores" ? T::stores
                               : T::unknown;
    if (g == "Store Reference" || g == "Stores")
        return n == "Total"    ? T::stores
               : n == "L1Hit"  ? T::st_l1hit
               : n == "L1Miss" ? T::st_l1miss
               : n == "N/A"    ? T::st_na
                               : T::unknown;
    if (g == "Core Load Hit")
        return n == "FB" ? T::fb : n == "L1" ? T::l1 : n == "L2" ? T::l2 : T::unknown;
    if (g == "LLC Load Hit")
        return (n == "Llc" || n == "LclHit") ? T::llc_hit
               : n == "LclHitm"              ? T::llc_lcl_hitm
               : n == "Rmt"                  ? T::rmt_hit // 2016
                                             : T::unknown;
    if (g == "RMT Load Hit")
        return n == "RmtHit" ? T::rmt_hit : n == "RmtHitm" ? T::rmt_rmt_hitm : T::unknown;
    if (g == "Load Dram")
        return n == "Lcl" ? T::dram_lcl : n == "Rmt" ? T::dram_rmt : T::unknown;
    if (g == "LLC" && n == "Ld Miss")
        return T::llc_miss;
    return T::unknown;
}

std::string column_title(const Column& c) {
    return c.group.empty() ? c.name : fmt::format("{} {}", c.group, c.name);
}

struct TableLayout {
    std::vector<T> keys; // per column
    bool has(T t) const { return std::find(keys.begin(), keys.end(), t) != keys.end(); }
};

TableLayout table_layout(const Header& h, C2cReport& report) {
    TableLayout layout;
    for (const Column& c : h.columns) {
        layout.keys.push_back(table_column(c));
        if (layout.keys.back() == T::unknown)
            report.notes.push_back(
                {h.dots_line, fmt::format("Shared Data Cache Line Table column '{}' is not "
                                          "imported",
                                          column_title(c))});
    }
    // A required count and the column that may stand in for it (the same count printed under
    // another group), or T::unknown.
    struct Required {
        T column, or_column;
        const char* what;
    };
    const Required required[] = {
        {T::index, T::unknown, "Index"},
        {T::address, T::unknown, "Cacheline Address"},
        {T::lcl_hitm, T::llc_lcl_hitm, "local HITM"},
        {T::rmt_hitm, T::rmt_rmt_hitm, "remote HITM"},
        {T::loads, T::unknown, "Total Loads"},
        {T::stores, T::unknown, "Total Stores"},
        {T::st_l1hit, T::unknown, "Stores L1Hit"},
        {T::st_l1miss, T::unknown, "Stores L1Miss"},
        {T::fb, T::unknown, "Core Load Hit FB"},
        {T::l1, T::unknown, "Core Load Hit L1"},
        {T::l2, T::unknown, "Core Load Hit L2"},
        {T::llc_hit, T::unknown, "LLC Load Hit"},
        {T::rmt_hit, T::unknown, "remote load hit"},
        {T::dram_lcl, T::unknown, "Load Dram Lcl"},
        {T::dram_rmt, T::unknown, "Load Dram Rmt"},
    };
    for (const Required& r : required)
        if (!layout.has(r.column) && (r.or_column == T::unknown || !layout.has(r.or_column)))
            throw C2cParseError(
                h.dots_line,
                fmt::format("the Shared Data Cache Line Table has no {} column", r.what));
    return layout;
}

// Two columns of one count (current layouts print LclHitm under Load Hitm and LLC Load Hit)
// must agree; either may be absent.
std::uint64_t one_of(const SourceLine& l, const std::optional<std::uint64_t>& a,
                     const std::optional<std::uint64_t>& b, std::string_view what) {
    if (a && b && *a != *b)
        throw C2cParseError(l.number,
                            fmt::format("the two {} columns differ ({} and {})", what, *a, *b));
    return a ? *a : b.value_or(0);
}

SharedLine parse_table_row(const SourceLine& l, const Header& h, const TableLayout& layout) {
    const std::vector<Word> words = split_words(l.text);
    if (words.size() != h.columns.size())
        throw C2cParseError(l.number,
                            fmt::format("Shared Data Cache Line Table row has {} values, its "
                                        "header {} columns",
                                        words.size(), h.columns.size()));
    SharedLine line;
    line.line = l.number;
    std::array<std::optional<std::uint64_t>, static_cast<std::size_t>(T::count_)> v;
    for (std::size_t c = 0; c < words.size(); ++c) {
        const std::string_view w = words[c].text;
        const std::string title = column_title(h.columns[c]);
        switch (layout.keys[c]) {
        case T::address:
            line.address = hex_address(l, w, title);
            break;
        case T::node:
            line.node = std::string(w);
            break;
        case T::costly:
            line.costly_percent = percent(l, w, title);
            break;
        case T::unknown:
            break;
        default:
            v[static_cast<std::size_t>(layout.keys[c])] = count(l, w, title);
        }
    }
    const auto at = [&](T t) { return v[static_cast<std::size_t>(t)]; };
    line.index = at(T::index).value_or(0);
    line.pa_count = at(T::pa_count);
    line.lcl_hitm = one_of(l, at(T::lcl_hitm), at(T::llc_lcl_hitm), "LclHitm");
    line.rmt_hitm = one_of(l, at(T::rmt_hitm), at(T::rmt_rmt_hitm), "RmtHitm");
    if (const auto total = at(T::tot_hitm); total && *total != line.hitm())
        throw C2cParseError(l.number, fmt::format("Load Hitm Total {} is not LclHitm {} + RmtHitm "
                                                  "{}",
                                                  *total, line.lcl_hitm, line.rmt_hitm));
    line.lcl_peer = at(T::lcl_peer);
    line.rmt_peer = at(T::rmt_peer);
    if (const auto total = at(T::tot_peer);
        total && *total != line.lcl_peer.value_or(0) + line.rmt_peer.value_or(0))
        throw C2cParseError(l.number,
                            fmt::format("Load Peer Total {} is not Local + Remote", *total));
    line.records = at(T::records);
    line.loads = at(T::loads).value_or(0);
    line.stores = at(T::stores).value_or(0);
    line.store_l1_hit = at(T::st_l1hit).value_or(0);
    line.store_l1_miss = at(T::st_l1miss).value_or(0);
    line.store_na = at(T::st_na);
    line.fill_buffer_hit = at(T::fb).value_or(0);
    line.l1_hit = at(T::l1).value_or(0);
    line.l2_hit = at(T::l2).value_or(0);
    line.llc_hit = at(T::llc_hit).value_or(0);
    line.rmt_hit = at(T::rmt_hit).value_or(0);
    line.dram_lcl = at(T::dram_lcl).value_or(0);
    line.dram_rmt = at(T::dram_rmt).value_or(0);
    line.llc_miss = at(T::llc_miss);
    return line;
}

void parse_table(const std::vector<SourceLine>& lines, const Section& s, C2cReport& report,
                 TableLayout& layout) {
    const Header h = read_header(lines, s);
    layout = table_layout(h, report);
    std::unordered_set<std::uint64_t> addresses;
    for (std::size_t i = h.rows_begin; i < s.end; ++i) {
        const SourceLine& l = lines[i];
        if (is_blank(l.text) || is_hash_line(l.text))
            continue;
        // Refused at the first line too many, not after reading the rest of a large report.
        if (report.lines.size() == kMaxSharedLines)
            throw C2cParseError(l.number, fmt::format("more than {} shared lines, the most a run "
                                                      "holds (perf prints this many only with "
                                                      "--show-all)",
                                                      kMaxSharedLines));
        report.lines.push_back(parse_table_row(l, h, layout));
        if (!addresses.insert(report.lines.back().address).second)
            throw C2cParseError(l.number, fmt::format("line {:#x} is in the table twice",
                                                      report.lines.back().address));
    }
}

// ---- Shared Cache Line Distribution Pareto ------------------------------------------------

enum class P {
    num,
    rmt_pct,
    lcl_pct,
    st_l1hit_pct,
    st_l1miss_pct,
    st_na_pct,
    offset,
    offset_node,
    pa_count,
    pid,
    tid,
    code_address,
    rmt_cycles,
    lcl_cycles,
    load_cycles,
    records,
    cpu_count,
    symbol,
    object,
    source,
    node,
    unknown
};

P pareto_column(const Column& c, bool after_symbol) {
    const std::string_view g = c.group, n = c.name;
    if (n == "Num")
        return P::num;
    if (g == "HITM" || g == "Peer Snoop" || g == "Peer")
        return (n == "Rmt" || n == "RmtHitm")   ? P::rmt_pct
               : (n == "Lcl" || n == "LclHitm") ? P::lcl_pct
                                                : P::unknown;
    if (g == "Store Refs")
        return n == "L1 Hit"    ? P::st_l1hit_pct
               : n == "L1 Miss" ? P::st_l1miss_pct
               : n == "N/A"     ? P::st_na_pct
                                : P::unknown;
    if (g == "cycles")
        return n.starts_with("rmt ")   ? P::rmt_cycles
               : n.starts_with("lcl ") ? P::lcl_cycles
               : n == "load"           ? P::load_cycles
                                       : P::unknown;
    if (n == "Offset")
        return P::offset;
    if (n == "Node" || n.starts_with("Node{"))
        return after_symbol ? P::node : P::offset_node;
    const std::pair<std::string_view, P> by_name[] = {
        {"PA cnt", P::pa_count},   {"Pid", P::pid},
        {"Tid", P::tid},           {"Code address", P::code_address},
        {"records", P::records},   {"cnt", P::cpu_count},
        {"Symbol", P::symbol},     {"Object", P::object},
        {"Source:Line", P::source}};
    for (const auto& [name, key] : by_name)
        if (n == name)
            return key;
    return P::unknown;
}

struct ParetoLayout {
    std::vector<P> leading; // the one-word columns between Num and Symbol
    std::vector<std::string> leading_titles;
    bool store_na = false;
    bool source = false;
    bool node = false;
};

ParetoLayout pareto_layout(const Header& h, C2cReport& report) {
    ParetoLayout layout;
    std::size_t c = 0;
    if (h.columns.empty() || pareto_column(h.columns[0], false) != P::num)
        throw C2cParseError(h.dots_line, "the Pareto header does not start with Num");
    for (c = 1; c < h.columns.size(); ++c) {
        const P key = pareto_column(h.columns[c], false);
        if (key == P::symbol)
            break;
        if (key == P::unknown)
            report.notes.push_back({h.dots_line, fmt::format("Pareto column '{}' is not imported",
                                                             column_title(h.columns[c]))});
        layout.leading.push_back(key);
        layout.leading_titles.push_back(column_title(h.columns[c]));
        layout.store_na = layout.store_na || key == P::st_na_pct;
    }
    if (c == h.columns.size())
        throw C2cParseError(h.dots_line, "the Pareto header has no Symbol column");
    std::vector<P> tail;
    for (++c; c < h.columns.size(); ++c)
        tail.push_back(pareto_column(h.columns[c], true));
    // Only these text columns follow Symbol, in this order: the row's words cannot be
    // assigned to others, since a symbol is two words ("[.] name").
    if (tail.empty() || tail[0] != P::object)
        throw C2cParseError(h.dots_line, "the Pareto header has no Object column after Symbol");
    std::size_t t = 1;
    layout.source = t < tail.size() && tail[t] == P::source;
    t += layout.source;
    layout.node = t < tail.size() && tail[t] == P::node;
    t += layout.node;
    if (t != tail.size())
        throw C2cParseError(h.dots_line, "the Pareto header has an unknown column after Symbol");
    for (const P needed : {P::offset, P::rmt_pct, P::lcl_pct, P::st_l1hit_pct, P::st_l1miss_pct})
        if (std::find(layout.leading.begin(), layout.leading.end(), needed) == layout.leading.end())
            throw C2cParseError(h.dots_line,
                                "the Pareto header lacks its HITM, Store Refs or Offset columns");
    return layout;
}

ParetoLine parse_banner(const SourceLine& l, const ParetoLayout& layout) {
    const std::vector<Word> w = split_words(l.text);
    const std::size_t want = layout.store_na ? 7 : 6;
    if (w.size() != want)
        throw C2cParseError(l.number, fmt::format("Pareto line banner has {} values, not {} (Num, "
                                                  "HITM or peer counts, store counts, address)",
                                                  w.size(), want));
    ParetoLine p;
    p.line = l.number;
    p.index = count(l, w[0].text, "Num");
    p.rmt = count(l, w[1].text, "remote count");
    p.lcl = count(l, w[2].text, "local count");
    p.store_l1_hit = count(l, w[3].text, "store L1 hits");
    p.store_l1_miss = count(l, w[4].text, "store L1 misses");
    if (layout.store_na)
        p.store_na = count(l, w[5].text, "store N/A");
    p.address = hex_address(l, w.back().text, "line address");
    return p;
}

bool is_symbol_tag(std::string_view w) { // "[.]" user, "[k]" kernel, "[g]" guest, ...
    return w.size() == 3 && w.front() == '[' && w.back() == ']';
}

ParetoRow parse_pareto_row(const SourceLine& l, const ParetoLayout& layout) {
    const std::vector<Word> w = split_words(l.text);
    const std::size_t lead = layout.leading.size();
    if (w.size() < lead + 2)
        throw C2cParseError(
            l.number,
            fmt::format("Pareto row has {} values, its header at least {}", w.size(), lead + 2));
    ParetoRow row;
    row.line = l.number;
    for (std::size_t c = 0; c < lead; ++c) {
        const std::string_view v = w[c].text;
        const std::string& title = layout.leading_titles[c];
        switch (layout.leading[c]) {
        case P::rmt_pct:
            row.rmt_percent = percent(l, v, title);
            break;
        case P::lcl_pct:
            row.lcl_percent = percent(l, v, title);
            break;
        case P::st_l1hit_pct:
            row.store_l1_hit_percent = percent(l, v, title);
            break;
        case P::st_l1miss_pct:
            row.store_l1_miss_percent = percent(l, v, title);
            break;
        case P::st_na_pct:
            row.store_na_percent = percent(l, v, title);
            break;
        case P::offset: {
            const std::uint64_t offset = hex_address(l, v, title);
            if (offset >= 128) // a line is 64 bytes, 128 with --double-cl
                throw C2cParseError(l.number, fmt::format("offset {} is past any cacheline", v));
            row.offset = static_cast<std::uint32_t>(offset);
            break;
        }
        case P::offset_node:
            row.offset_node = std::string(v);
            break;
        case P::pa_count:
            row.pa_count = count(l, v, title);
            break;
        case P::pid:
            row.pid = std::string(v);
            break;
        case P::tid:
            row.tid = std::string(v);
            break;
        case P::code_address:
            row.code_address = hex_address(l, v, title);
            break;
        case P::rmt_cycles:
            row.rmt_cycles = count(l, v, title);
            break;
        case P::lcl_cycles:
            row.lcl_cycles = count(l, v, title);
            break;
        case P::load_cycles:
            row.load_cycles = count(l, v, title);
            break;
        case P::records:
            row.records = count(l, v, title);
            break;
        case P::cpu_count:
            row.cpu_count = count(l, v, title);
            break;
        default:
            break;
        }
    }
    std::size_t i = lead;
    if (is_symbol_tag(w[i].text) && i + 1 < w.size()) {
        row.symbol = fmt::format("{} {}", w[i].text, w[i + 1].text);
        i += 2;
    } else {
        row.symbol = std::string(w[i++].text);
    }
    const auto next = [&](const char* what) {
        if (i == w.size())
            throw C2cParseError(l.number,
                                fmt::format("Pareto row ends before its {} column", what));
        return std::string(w[i++].text);
    };
    row.object = next("Object");
    if (layout.source)
        row.source = next("Source:Line");
    if (layout.node) {
        next("Node");
        row.node = std::string(trim(std::string_view(l.text).substr(w[i - 1].begin)));
        i = w.size();
    }
    if (i != w.size())
        throw C2cParseError(l.number, fmt::format("Pareto row has a value after its last column "
                                                  "('{}')",
                                                  w[i].text));
    return row;
}

void parse_pareto(const std::vector<SourceLine>& lines, const Section& s, C2cReport& report) {
    // With no shared line perf prints the title and a lone "#", no header (perf 6.1.187, seen
    // on a recording without memory samples): an empty Pareto.
    if (std::all_of(lines.begin() + static_cast<std::ptrdiff_t>(s.begin),
                    lines.begin() + static_cast<std::ptrdiff_t>(s.end),
                    [](const SourceLine& l) { return is_blank(l.text) || trim(l.text) == "#"; }))
        return;
    const Header h = read_header(lines, s);
    const ParetoLayout layout = pareto_layout(h, report);
    enum class State { rows, banner_next, rule_next } state = State::rows;
    std::size_t last = s.title_line;
    for (std::size_t i = h.rows_begin; i < s.end; ++i) {
        const SourceLine& l = lines[i];
        if (is_blank(l.text) || is_hash_line(l.text))
            continue;
        last = l.number;
        if (is_rule(l.text, '-')) {
            if (state == State::banner_next)
                throw C2cParseError(l.number, "two dash rules with no line banner between them");
            state = state == State::rows ? State::banner_next : State::rows;
            continue;
        }
        switch (state) {
        case State::banner_next:
            report.pareto.push_back(parse_banner(l, layout));
            state = State::rule_next;
            break;
        case State::rule_next:
            throw C2cParseError(l.number, "expected a dash rule after the Pareto line banner");
        case State::rows:
            if (report.pareto.empty())
                throw C2cParseError(l.number, "a Pareto row before any line banner");
            report.pareto.back().rows.push_back(parse_pareto_row(l, layout));
        }
    }
    if (state != State::rows)
        throw C2cParseError(last, "the Pareto ends inside a line banner");
}

// ---- the whole report ---------------------------------------------------------------------

bool has_label(const std::vector<Stat>& stats, std::string_view label) {
    return std::any_of(stats.begin(), stats.end(), [&](const Stat& s) { return s.label == label; });
}

PerfLayout detect_layout(const C2cReport& r, const std::optional<TableLayout>& table,
                         bool groupping) {
    if (table)
        return table->has(T::llc_miss) ? PerfLayout::v2016
               : table->has(T::st_na)  ? PerfLayout::current
                                       : PerfLayout::v2020;
    if (has_label(r.trace, "Store No available memory level") ||
        has_label(r.trace, "Load access blocked by data") ||
        has_label(r.trace, "Load HIT Local Peer"))
        return PerfLayout::current;
    return groupping ? PerfLayout::v2016 : PerfLayout::v2020;
}

Vendor detect_vendor(const Details& d) {
    const auto any = [&](std::string_view what) {
        return std::any_of(d.events.begin(), d.events.end(),
                           [&](const std::string& e) { return e.find(what) != std::string::npos; });
    };
    if (any("ibs_op"))
        return Vendor::amd;
    if (any("arm_spe"))
        return Vendor::arm;
    if (any("ldlat") || any("mem-loads-aux") || any("cpu_core/") || any("cpu_atom/"))
        return Vendor::intel;
    return Vendor::unknown;
}

// perf prints a Pareto block for every line of the table, in the table's order: print_pareto()
// walks the same entries as the table, skipping the same filtered ones (tools/perf/builtin-c2c.c).
// A block of another line mixes two reports; fewer blocks than lines is a report cut off inside
// its Pareto, whose last lines would import without their offsets.
void check_pareto_lines(const C2cReport& r, std::size_t last_line) {
    for (std::size_t k = 0; k < r.pareto.size(); ++k) {
        const ParetoLine& p = r.pareto[k];
        if (k == r.lines.size())
            throw C2cParseError(p.line, fmt::format("Pareto line {} at {:#x} is not in the Shared "
                                                    "Data Cache Line Table ({} lines)",
                                                    p.index, p.address, r.lines.size()));
        const SharedLine& l = r.lines[k];
        if (p.index != l.index || p.address != l.address)
            throw C2cParseError(p.line, fmt::format("the Pareto's block {} is line {} at {:#x}, "
                                                    "not the table's line {} at {:#x}",
                                                    k, p.index, p.address, l.index, l.address));
    }
    if (r.pareto.size() < r.lines.size())
        throw C2cParseError(last_line, fmt::format("the report ends after the Pareto of {} of the "
                                                   "table's {} lines: it is cut off",
                                                   r.pareto.size(), r.lines.size()));
}

// perf_c2c__hists_fprintf() prints the first three sections always, the last two unless --stats
// (reference/c2c.md §1.4), so a report without one of them ends early: a cut-off copy, whose
// missing counts would be stored as zeros.
void check_complete(const C2cReport& r, const std::map<std::string, std::size_t>& seen,
                    std::size_t last_line) {
    const auto cut_before = [&](std::string_view section) {
        return C2cParseError(
            last_line,
            fmt::format("the report ends before its {} section: it is cut off", section));
    };
    for (const std::string_view title : {kSharedTitle, kDetailsTitle})
        if (!seen.contains(std::string(title)))
            throw cut_before(title);
    const bool table = seen.contains(std::string(kTableTitle));
    const bool pareto = seen.contains(std::string(kParetoTitle));
    if (table && !pareto)
        throw cut_before(kParetoTitle);
    if (pareto && !table)
        throw C2cParseError(
            seen.at(std::string(kParetoTitle)),
            fmt::format("a {} section without a {} section", kParetoTitle, kTableTitle));
    // The statistics perf prints in every version that the import counts on: the trace's
    // records and HITMs, and the last line of the details, which a --stats report ends with.
    for (const std::string_view label : {"Total records", "Load Local HITM", "Load Remote HITM"})
        if (!r.trace_stat(label))
            throw C2cParseError(seen.at(std::string(kTraceTitle)),
                                fmt::format("the {} section has no '{}' line", kTraceTitle, label));
    if (!r.details.grouping)
        throw C2cParseError(
            seen.at(std::string(kDetailsTitle)),
            fmt::format("the {} section has no 'Cacheline data grouping' line", kDetailsTitle));
}

std::vector<SourceLine> all_lines(std::string_view text) {
    std::vector<SourceLine> lines;
    locks::LineSource source(text);
    while (!source.done())
        lines.push_back(source.take());
    return lines;
}

} // namespace

C2cReport parse_c2c_report(std::string_view text) {
    try {
        locks::check_text(text); // control characters, invalid UTF-8, UTF-16
    } catch (const locks::LockParseError& e) {
        throw C2cParseError(e.line(), e.reason());
    } catch (const locks::LockTextEncodingError& e) {
        throw C2cTextEncodingError(e.what());
    }
    const std::vector<SourceLine> lines = all_lines(text);
    const std::vector<Section> sections = find_sections(lines);
    if (std::none_of(sections.begin(), sections.end(),
                     [](const Section& s) { return s.title == kTraceTitle; }))
        throw NotAC2cReport(fmt::format("{}, not a perf c2c report", describe_other_text(text)));

    C2cReport report;
    std::optional<TableLayout> table;
    bool groupping = false, pareto = false;
    std::map<std::string, std::size_t> seen; // title -> line
    const std::size_t first_body = sections.front().begin - 3;
    for (std::size_t i = 0; i < first_body; ++i)
        if (!is_blank(lines[i].text)) {
            report.notes.push_back({lines[i].number, "text before the first section skipped"});
            break;
        }
    for (const Section& s : sections) {
        if (const auto [it, fresh] = seen.emplace(s.title, s.title_line); !fresh)
            throw C2cParseError(s.title_line,
                                fmt::format("a second '{}' section (the first is at line {}): one "
                                            "report per file",
                                            s.title, it->second));
        if (s.title == kTraceTitle) {
            parse_stats(lines, s, report.trace);
        } else if (s.title == kSharedTitle) {
            parse_stats(lines, s, report.shared);
        } else if (s.title == kDetailsTitle) {
            parse_details(lines, s, report);
            for (std::size_t i = s.begin; i < s.end; ++i)
                groupping = groupping || lines[i].text.find("groupping") != std::string::npos;
        } else if (s.title == kTableTitle) {
            table.emplace();
            parse_table(lines, s, report, *table);
        } else if (s.title == kParetoTitle) {
            pareto = true;
            parse_pareto(lines, s, report);
        } else {
            report.notes.push_back(
                {s.title_line, fmt::format("section '{}' is not imported", s.title)});
        }
    }
    const auto last = std::find_if(lines.rbegin(), lines.rend(),
                                   [](const SourceLine& l) { return !is_blank(l.text); });
    const std::size_t last_line = last->number; // a section title at least
    check_complete(report, seen, last_line);
    check_pareto_lines(report, last_line);
    report.stats_only = !table && !pareto;
    report.layout = detect_layout(report, table, groupping);
    report.vendor = detect_vendor(report.details);
    report.peer_mode = report.details.sort_on == "Peer Snoop" ||
                       (table && (table->has(T::tot_peer) || table->has(T::lcl_peer)));
    return report;
}

} // namespace hitmap::perfc2c
