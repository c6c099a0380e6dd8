#pragma once
// perf c2c report text made in the tests: section frames and table headers laid out as perf
// lays them out (two-space gaps, names right-aligned over dot runs, dashed group spans), so a
// synthetic report exercises the same header reading as a real one.
#include <cstddef>
#include <cstdint>
#include <fmt/format.h>
#include <functional>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::testing {

struct HeaderColumn {
    std::string group; // "-Load Peer" spans the following columns with the same group; a plain
                       // word sits above this column alone; empty: none
    std::string name;
    std::size_t width;
};

inline std::string section(const std::string& title) {
    const std::string rule(49, '=');
    return rule + "\n" + std::string((49 - title.size()) / 2, ' ') + title + "\n" + rule + "\n";
}

// "  Label      :      value" of the statistics sections, as perf prints it ("%-34s: %10d").
inline std::string stat_line(std::string_view label, std::uint64_t value) {
    return fmt::format("  {:<34}: {:>10}\n", label, value);
}

inline std::string details_section(const std::string& events, const std::string& sort_on) {
    return section("c2c details") + "  Events                            : " + events + "\n" +
           "  Cachelines sort on                : " + sort_on + "\n" +
           "  Cacheline data grouping           : offset,iaddr\n\n";
}

// "#", group line, name line, dot line, "#".
inline std::string table_header(const std::vector<HeaderColumn>& columns) {
    std::string group = "#", names = "#", dots = "#";
    for (std::size_t c = 0; c < columns.size();) {
        const HeaderColumn& col = columns[c];
        if (!col.group.empty() && col.group[0] == '-') {
            std::size_t width = 0, end = c;
            for (; end < columns.size() && columns[end].group == col.group; ++end)
                width += columns[end].width + 2;
            const std::string title = " " + col.group.substr(1) + " ";
            const std::size_t dashes = width - 2 - title.size();
            group +=
                "  " + std::string(dashes / 2, '-') + title + std::string(dashes - dashes / 2, '-');
            for (; c < end; ++c) {
                names += "  " + std::string(columns[c].width - columns[c].name.size(), ' ') +
                         columns[c].name;
                dots += "  " + std::string(columns[c].width, '.');
            }
            continue;
        }
        group += "  " + std::string(col.width - col.group.size(), ' ') + col.group;
        names += "  " + std::string(col.width - col.name.size(), ' ') + col.name;
        dots += "  " + std::string(col.width, '.');
        ++c;
    }
    return "#\n" + group + "\n" + names + "\n" + dots + "\n#\n";
}

// The current layout's table header: the AMD fixture's columns, or in peer mode (Arm SPE,
// reference/c2c.md §1.4.4) the lines ranked by "Peer Snoop" with "Load Peer" counts.
inline std::string current_table_header(bool peer = false) {
    const std::string load = peer ? "-Load Peer" : "-Load Hitm";
    return table_header({{"", "Index", 5},
                         {"-Cacheline", "Address", 18},
                         {"-Cacheline", "Node", 4},
                         {"-Cacheline", "PA cnt", 6},
                         {peer ? "Peer" : "Tot", peer ? "Snoop" : "Hitm", 7},
                         {load, "Total", 7},
                         {load, peer ? "Local" : "LclHitm", 7},
                         {load, peer ? "Remote" : "RmtHitm", 7},
                         {"Total", "records", 7},
                         {"Total", "Loads", 7},
                         {"Total", "Stores", 7},
                         {"-Stores", "L1Hit", 7},
                         {"-Stores", "L1Miss", 7},
                         {"-Stores", "N/A", 7},
                         {"-Core Load Hit", "FB", 7},
                         {"-Core Load Hit", "L1", 7},
                         {"-Core Load Hit", "L2", 7},
                         {"-LLC Load Hit", "LclHit", 8},
                         {"-LLC Load Hit", "LclHitm", 7},
                         {"-RMT Load Hit", "RmtHit", 8},
                         {"-RMT Load Hit", "RmtHitm", 7},
                         {"-Load Dram", "Lcl", 8},
                         {"-Load Dram", "Rmt", 8}});
}

// The current layout's Pareto header, of HITM or peer percentages and cycles.
inline std::string current_pareto_header(bool peer = false) {
    const std::string costly = peer ? "-Peer Snoop" : "-HITM";
    return table_header({{"", "Num", 5},
                         {costly, peer ? "Rmt" : "RmtHitm", 7},
                         {costly, peer ? "Lcl" : "LclHitm", 7},
                         {"-Store Refs", "L1 Hit", 7},
                         {"-Store Refs", "L1 Miss", 7},
                         {"-Store Refs", "N/A", 7},
                         {"-Data address", "Offset", 18},
                         {"-Data address", "Node", 4},
                         {"-Data address", "PA cnt", 6},
                         {"", "Code address", 18},
                         {"-cycles", peer ? "rmt peer" : "rmt hitm", 8},
                         {"-cycles", peer ? "lcl peer" : "lcl hitm", 8},
                         {"-cycles", "load", 8},
                         {"Total", "records", 7},
                         {"cpu", "cnt", 8},
                         {"", "Symbol", 20},
                         {"Shared", "Object", 8},
                         {"", "Source:Line", 11},
                         {"", "Node", 4}});
}

// A whole `perf c2c report --stdio` text of the current HITM layout, every section perf prints
// (reference/c2c.md §1.4), with `lines` shared lines of `rows_per_line` (> 0) Pareto rows each,
// at the line's 8-byte offsets in turn. Its counts agree with each other as perf's do (a line's
// totals are the sums of their parts, the trace's HITMs the lines'), so the text imports. Line i
// is at `line_address(i)` (64-byte aligned, distinct), by default 0x7f0000000000 + 64 * i.
// `hot_extra` more local HITMs on line 0 make a later capture of the same program, hotter there.
inline std::string
synthetic_report(std::size_t lines, std::size_t rows_per_line,
                 const std::function<std::uint64_t(std::size_t)>& line_address = {},
                 std::size_t hot_extra = 0) {
    // Line i: lcl(i) local and rmt(i) remote HITMs, 15 store L1 hits and 5 misses, 5 L1 hits,
    // 20 LLC hits, 3 remote hits and 2 local DRAM loads.
    const auto lcl = [hot_extra](std::size_t i) { return 20 + i % 7 + (i == 0 ? hot_extra : 0); };
    const auto rmt = [](std::size_t i) { return 10 + i % 5; };
    std::uint64_t all_lcl = 0, all_rmt = 0;
    for (std::size_t i = 0; i < lines; ++i) {
        all_lcl += lcl(i);
        all_rmt += rmt(i);
    }
    const std::uint64_t other_loads = 5 + 20 + 3 + 2, stores = 20;
    const std::uint64_t loads = all_lcl + all_rmt + lines * other_loads;
    std::string s;
    s.reserve(lines * (240 + 3 * 75 + rows_per_line * 215) + 8192);
    auto out = std::back_inserter(s);
    const auto stat = [&](std::string_view label, std::uint64_t value) {
        s += stat_line(label, value);
    };
    s += section("Trace Event Information");
    stat("Total records", loads + lines * stores);
    stat("Locked Load/Store Operations", 0);
    stat("Load Operations", loads);
    for (const char* zero : {"Loads - uncacheable", "Loads - IO", "Loads - Miss",
                             "Loads - no mapping", "Load Fill Buffer Hit"})
        stat(zero, 0);
    stat("Load L1D hit", lines * 5);
    stat("Load L2D hit", 0);
    stat("Load LLC hit", lines * 20 + all_lcl);
    stat("Load Local HITM", all_lcl);
    stat("Load Remote HITM", all_rmt);
    stat("Load Remote HIT", lines * 3);
    stat("Load Local DRAM", lines * 2);
    for (const char* zero :
         {"Load Remote DRAM", "Load MESI State Exclusive", "Load MESI State Shared"})
        stat(zero, 0);
    stat("Load LLC Misses", all_rmt + lines * (3 + 2));
    for (const char* zero : {"Load access blocked by data", "Load access blocked by address",
                             "Load HIT Local Peer", "Load HIT Remote Peer"})
        stat(zero, 0);
    const double misses = static_cast<double>(all_rmt + lines * 5);
    fmt::format_to(out, "  {:<34}: {:>10.1f}%\n", "LLC Misses to Local DRAM",
                   100.0 * static_cast<double>(lines * 2) / misses);
    fmt::format_to(out, "  {:<34}: {:>10.1f}%\n", "LLC Misses to Remote DRAM", 0.0);
    fmt::format_to(out, "  {:<34}: {:>10.1f}%\n", "LLC Misses to Remote cache (HIT)",
                   100.0 * static_cast<double>(lines * 3) / misses);
    fmt::format_to(out, "  {:<34}: {:>10.1f}%\n", "LLC Misses to Remote cache (HITM)",
                   100.0 * static_cast<double>(all_rmt) / misses);
    stat("Store Operations", lines * stores);
    stat("Store - uncacheable", 0);
    stat("Store - no mapping", 0);
    stat("Store L1D Hit", lines * 15);
    stat("Store L1D Miss", lines * 5);
    stat("Store No available memory level", 0);
    stat("No Page Map Rejects", 0);
    stat("Unable to parse data source", 0);
    s += "\n" + section("Global Shared Cache Line Event Information");
    stat("Total Shared Cache Lines", lines);
    stat("Load HITs on shared lines", loads);
    stat("Fill Buffer Hits on shared lines", 0);
    stat("L1D hits on shared lines", lines * 5);
    stat("L2D hits on shared lines", 0);
    stat("LLC hits on shared lines", lines * 20 + all_lcl);
    for (const char* zero : {"Load hits on peer cache or nodes", "Locked Access on shared lines",
                             "Blocked Access on shared lines"})
        stat(zero, 0);
    stat("Store HITs on shared lines", lines * stores);
    stat("Store L1D hits on shared lines", lines * 15);
    stat("Store No available memory level", 0);
    stat("Total Merged records", all_lcl + all_rmt + lines * stores);
    s += "\n" + details_section("ibs_op//", "Total HITMs");

    const auto address = [&](std::size_t i) {
        return line_address ? line_address(i) : std::uint64_t{0x7f0000000000u + 64 * i};
    };
    const double all_hitm = static_cast<double>(all_lcl + all_rmt);
    s += section("Shared Data Cache Line Table") + current_table_header();
    for (std::size_t i = 0; i < lines; ++i) {
        const std::uint64_t l = lcl(i), r = rmt(i);
        fmt::format_to(out,
                       "  {:>5}  {:>#18x}  {:>4}  {:>6}  {:>6.2f}%  {:>7}  {:>7}  {:>7}  {:>7}  "
                       "{:>7}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}  {:>8}  {:>7}  "
                       "{:>8}  {:>7}  {:>8}  {:>8}\n",
                       i, address(i), 0, 1, 100.0 * static_cast<double>(l + r) / all_hitm, l + r, l,
                       r, l + r + other_loads + stores, l + r + other_loads, stores, 15, 5, 0, 0, 5,
                       0, 20, l, 3, r, 2, 0);
    }
    s += "\n" + section("Shared Cache Line Distribution Pareto") + current_pareto_header();
    const std::string rule = "  " + std::string(70, '-') + "\n";
    const double share = 100.0 / static_cast<double>(rows_per_line);
    for (std::size_t i = 0; i < lines; ++i) {
        s += rule;
        fmt::format_to(out, "  {:>5}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}  {:>#18x}\n", i, rmt(i),
                       lcl(i), 15, 5, 0, address(i));
        s += rule;
        for (std::size_t k = 0; k < rows_per_line; ++k)
            fmt::format_to(out,
                           "         {:>6.2f}%  {:>6.2f}%  {:>6.2f}%  {:>6.2f}%  {:>6.2f}%  "
                           "{:>#18x}  {:>4}  {:>6}  {:>#18x}  {:>8}  {:>8}  {:>8}  {:>7}  {:>8}  "
                           "[.] worker_{}  bench  bench.c:{}  0\n",
                           share, share, share, share, 0.0, 8 * (k % 8), 0, 1,
                           0x401000 + 16 * (i % 97 + k), 310, 120, 95, 160, 4, k, 40 + k);
        s += "\n";
    }
    return s;
}

} // namespace hitmap::testing
