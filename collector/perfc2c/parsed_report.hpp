#pragma once
// A `perf c2c report --stdio` text as plain values, section by section (reference/c2c.md §1.4).
// Every number is what the text printed; a column or line the text's perf version did not print
// is std::nullopt, never 0.
#include "engine/probe/object_registry.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::perfc2c {

// Which perf printed the text, told from its columns and labels.
enum class PerfLayout {
    v2016,   // Rmt Hitm first, "LLC Load Hitm", "LLC Ld Miss"; no Node, PA cnt or N/A
    v2020,   // Node and PA cnt, totals first; no N/A stores, blocked or peer lines
    current, // N/A stores, blocked-access and peer lines (2022 on)
};
enum class Vendor { intel, amd, arm, unknown }; // from the event names

// The most shared lines a report may have: each line becomes an object of the run, numbered by
// engine::ObjectId, which every trace record holds in 16 bits (engine/probe/trace_record.hpp).
// perf prints this many only with --show-all: by default it hides every line under 0.05 % of the
// HITMs (0.1 % in current perf), so it prints at most 2,000.
inline constexpr std::size_t kMaxSharedLines =
    std::size_t{std::numeric_limits<engine::ObjectId>::max()} + 1;

std::string_view to_string(PerfLayout layout); // "2016 layout", "~2020 layout", "current layout"
std::string_view to_string(Vendor vendor);     // "Intel", "AMD", "Arm SPE", "unknown vendor"

// One "  Label : value" line of the statistics sections.
struct Stat {
    std::size_t line = 0; // in the text, 1-based
    std::string label;
    double value = 0;
    bool percent = false; // "4.4%": value is 4.4
};

// The c2c details section.
struct Details {
    std::vector<std::string> events;
    std::optional<std::string> sort_on;  // "Total HITMs", "Remote HITMs", "Peer Snoop", ...
    std::optional<std::string> grouping; // "offset,iaddr"
};

// One row of the Shared Data Cache Line Table. In peer mode (Arm SPE) the "Load Hitm" group
// is "Load Peer" (Total, Local, Remote): those counts are in the peer fields and the HITM ones
// are the LLC/RMT groups' LclHitm and RmtHitm.
struct SharedLine {
    std::size_t line = 0; // in the text
    std::uint64_t index = 0;
    std::uint64_t address = 0;
    std::optional<std::string> node; // "0", "N/A"
    std::optional<std::uint64_t> pa_count;
    double costly_percent = 0; // the line's share of the sort metric (Tot/Rmt/Lcl Hitm, Peer)
    std::uint64_t lcl_hitm = 0;
    std::uint64_t rmt_hitm = 0;
    std::optional<std::uint64_t> lcl_peer; // peer mode only
    std::optional<std::uint64_t> rmt_peer;
    std::optional<std::uint64_t> records; // 2016 reports print it; so do later ones
    std::uint64_t loads = 0;
    std::uint64_t stores = 0;
    std::uint64_t store_l1_hit = 0;
    std::uint64_t store_l1_miss = 0;
    std::optional<std::uint64_t> store_na; // 2022 on
    std::uint64_t fill_buffer_hit = 0;
    std::uint64_t l1_hit = 0;
    std::uint64_t l2_hit = 0;
    std::uint64_t llc_hit = 0; // LLC hits without HITM ("LclHit", 2016 "Llc")
    std::uint64_t rmt_hit = 0; // remote cache hits, clean (Arm: any remote access)
    std::uint64_t dram_lcl = 0;
    std::uint64_t dram_rmt = 0;
    std::optional<std::uint64_t> llc_miss; // 2016 only

    std::uint64_t hitm() const { return lcl_hitm + rmt_hitm; }
};

// One Pareto row: an (offset, code address) of a line. Percentages are of the line's counts.
struct ParetoRow {
    std::size_t line = 0;
    double rmt_percent = 0; // of the line's remote HITMs (peer mode: remote peer loads)
    double lcl_percent = 0;
    double store_l1_hit_percent = 0;
    double store_l1_miss_percent = 0;
    std::optional<double> store_na_percent;
    std::uint32_t offset = 0;
    std::optional<std::string> offset_node;
    std::optional<std::uint64_t> pa_count;
    std::optional<std::string> pid;
    std::optional<std::string> tid;
    std::optional<std::uint64_t> code_address;
    // Mean sample weights (cycles) of the row's remote-HITM, local-HITM and other loads.
    std::uint64_t rmt_cycles = 0;
    std::uint64_t lcl_cycles = 0;
    std::uint64_t load_cycles = 0;
    std::optional<std::uint64_t> records;
    std::uint64_t cpu_count = 0;
    std::string symbol; // "[.] read_write_func"
    std::string object;
    std::optional<std::string> source; // "file.c:144"; absent with --no-source
    std::optional<std::string> node;   // CPU-side node column as printed ("0{0-1,4}  1{24}")
};

// A line's block of the Pareto: its banner (absolute counts) and rows.
struct ParetoLine {
    std::size_t line = 0;
    std::uint64_t index = 0;
    std::uint64_t address = 0;
    std::uint64_t rmt = 0; // remote HITMs (peer mode: remote peer loads)
    std::uint64_t lcl = 0;
    std::uint64_t store_l1_hit = 0;
    std::uint64_t store_l1_miss = 0;
    std::optional<std::uint64_t> store_na;
    std::vector<ParetoRow> rows;
};

// Something the parser did not import but did not refuse either (an unknown section, an
// unknown column), with its line.
struct Note {
    std::size_t line = 0;
    std::string text;
};

struct C2cReport {
    PerfLayout layout = PerfLayout::current;
    Vendor vendor = Vendor::unknown;
    bool peer_mode = false;   // Arm SPE: lines ranked by peer snoops, not HITMs
    bool stats_only = false;  // `--stats`: no table, no Pareto
    std::vector<Stat> trace;  // Trace Event Information
    std::vector<Stat> shared; // Global Shared Cache Line Event Information
    Details details;
    std::vector<SharedLine> lines;
    std::vector<ParetoLine> pareto;
    std::vector<Note> notes;

    // The value of a statistic by its label, nullopt when the text did not print it.
    std::optional<double> trace_stat(std::string_view label) const;
    std::optional<double> shared_stat(std::string_view label) const;
    // Load Local HITM + Load Remote HITM of the trace: every HITM is on a shared line.
    std::uint64_t total_hitm() const;
};

} // namespace hitmap::perfc2c
