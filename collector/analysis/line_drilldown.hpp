#pragma once
// One cacheline as perf c2c's TUI drills into it: per offset, the code that touched it (symbol,
// source:line, pid/tid, the CPUs and their nodes), its local and remote HITMs, stores and mean
// cycles; for the line its HITM split, loads, stores, node and CPUs. Read from what the run
// stored: an import's perf c2c rows (their metrics and code locations), PMU samples' per-CPU
// counts and measured latencies, a replay's per-CPU counts and estimated cycles. What a source
// did not record is nullopt (shown "–"), never 0; why a line has no code rows is said.
#include "collector/c2c/replay_result.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/records.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hitmap::analysis {

// One perf c2c Pareto row: an (offset, code address) of the line.
struct CodeRow {
    std::uint32_t offset = 0;
    // The run's field at the offset ("memory.usage", or perf's "+0x30")
    std::string field;
    std::optional<std::string> code_address, symbol, object, source, pid, tid;
    // perf's "Node{cpu list}" of the CPUs that ran the code: "0{0-1,4}  1{24}".
    std::optional<std::string> cpus;
    std::optional<std::uint64_t> cpu_count;
    // The row's HITMs and store hits as counts: perf prints them as percentages of the line's
    // (two decimals), so a count can be one sample off.
    std::optional<std::uint64_t> rmt_hitm, lcl_hitm, store_l1_hit, store_l1_miss;
    std::optional<std::uint64_t> records;
    std::optional<double> rmt_hitm_cycles, lcl_hitm_cycles, load_cycles; // means, per sample
};

// A CPU's share of the line: the per-CPU counts a trace replay or PMU samples keep.
struct CpuCount {
    std::uint32_t cpu = 0;
    std::uint64_t hitm = 0, loads = 0, stores = 0;
};

struct LineDrilldown {
    std::optional<std::uint64_t> lcl_hitm, rmt_hitm; // perf's split; a trace knows no nodes
    std::uint64_t loads = 0, stores = 0;
    std::optional<std::string> node; // the line's home node as perf printed it
    // Mean cycles of the line's loads: PMU samples' measured latencies, or a replay's cost
    // model (`cycles_estimated`); a perf c2c text has means per row only.
    std::optional<double> mean_load_cycles;
    bool cycles_estimated = false;
    std::vector<CodeRow> code;  // perf's Pareto order
    std::vector<CpuCount> cpus; // by CPU
    // Why `code` is empty: "PMU samples carry data addresses only", ...; nullopt when it is not.
    std::optional<std::string> no_code_reason;
};

// The drill-down of every line of a run's c2c data, by line address. `params_json` and
// `metrics` are the run's (an import keeps its code locations in its parameters, its rows'
// figures as metrics).
std::map<std::uint64_t, LineDrilldown> line_drilldowns(const store::C2cData& data,
                                                       const std::string& params_json,
                                                       const std::vector<store::Metric>& metrics);

} // namespace hitmap::analysis
