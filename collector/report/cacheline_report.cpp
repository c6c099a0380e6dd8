#include "collector/report/cacheline_report.hpp"

#include "collector/analysis/cacheline_columns.hpp"
#include "collector/analysis/cacheline_row.hpp"
#include "collector/analysis/rate.hpp"
#include "collector/report/output_text.hpp"
#include "collector/report/unknown.hpp"
#include "engine/probe/site.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace hitmap::report {

// What the report prints is analysis's: the lines ranked and named, their rates.
using analysis::fields_on_line;
using analysis::hitm_share;
using analysis::is_share;
using analysis::line_name;
using analysis::per_thousand;
using analysis::ranked_lines;
using analysis::rate_basis;
using analysis::rate_phrase;
using analysis::rate_suffix;
using analysis::rate_text;
using analysis::RateBasis;

namespace {

const std::string kRule(49, '=');

std::string section(const std::string& title) {
    const std::size_t pad = title.size() < kRule.size() ? (kRule.size() - title.size()) / 2 : 0;
    return fmt::format("{}\n{}{}\n{}\n", kRule, std::string(pad, ' '), title, kRule);
}

std::string count_text(std::optional<std::uint64_t> value) {
    return text_or_unknown(value, "{}");
}

std::string cycles_text(std::optional<double> value) {
    return text_or_unknown(value, "{:.0f}");
}

// A row of a table of columns declared in analysis: each padded to its width (at least its
// header's), numbers to the right, the last column as wide as its text.
template <class Text>
std::string text_row(const std::vector<analysis::CachelineColumn>& columns, Text text) {
    std::string out;
    for (const analysis::CachelineColumn& c : columns) {
        const std::size_t width = c.width ? std::max<std::size_t>(c.width, c.header.size()) : 0;
        out += c.text ? fmt::format("{:<{}} ", text(c), width)
                      : fmt::format("{:>{}} ", text(c), width);
    }
    out.back() = '\n';
    return out;
}

// perf c2c's stat line: "  %-34s: %10d", "–" for a count the source could not give.
std::string stat(const std::string& label, std::optional<std::uint64_t> value) {
    return fmt::format("  {:<34}: {:>10}\n", label, count_text(value));
}

// The CPUs that took the line, as far as the source counted (without the store classes: by load
// HITMs and clean forwards), with their HITMs and transfers ("–" where not all are counted).
std::string cpu_split(const store::C2cData& data, const c2c::LineKey& line) {
    const auto& r = data.result;
    std::string out;
    for (const auto& c : r.cpus)
        if (c.line == line && c.counts.transfers() > 0)
            out += fmt::format("{}{}{}: {} hitm {} xfer", out.empty() ? "" : ", ",
                               r.model_cpus == c2c::ModelCpus::thread ? "thread" : "cpu", c.cpu,
                               c.counts.hitm(), count_text(data.shown(c.counts).transfers));
    return out.empty() ? "-" : out;
}

// Imports, perf c2c around a run and PMU samples: what perf's TUI drills into. A replay's
// lines already show their CPUs, cycles and field pairs above.
bool sampled(const store::C2cData& data) {
    return data.trace.clock == "sampled";
}

std::string text_of(const std::optional<std::string>& s) {
    return s ? escape_control(*s) : std::string(unknown_text);
}

// perf c2c's TUI view of a line: its HITM split, node and cycles, then the code that touched
// each offset.
std::string drilldown_text(const analysis::LineDrilldown& d) {
    std::string out = fmt::format(
        "  Lcl Hitm {}  Rmt Hitm {}  loads {}  stores {}  node {}  mean load cycles {}{}\n",
        count_text(d.lcl_hitm), count_text(d.rmt_hitm), d.loads, d.stores, text_of(d.node),
        text_or_unknown(d.mean_load_cycles, "{:.0f}"),
        d.mean_load_cycles && d.cycles_estimated ? " (estimated)" : "");
    if (d.code.empty())
        return out + fmt::format("  code: {} ({})\n", unknown_text,
                                 d.no_code_reason.value_or("none recorded"));
    out += "  code (perf c2c's rows; HITM and store counts from its percentages, mean cycles):\n";
    out += fmt::format("    {:>6} {:<20} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>4} "
                       "{:>7} {:>7} {:<18} {:<28} {:<24} {:<12} {}\n",
                       "Offset", "Field", "RmtHitm", "LclHitm", "L1Hit", "L1Miss", "rmt cyc",
                       "lcl cyc", "ld cyc", "Records", "CPUs", "Pid", "Tid", "Code address",
                       "Symbol", "Source:Line", "Object", "Node{cpus}");
    const auto cycles = [](const std::optional<double>& v) { return text_or_unknown(v, "{:.0f}"); };
    for (const analysis::CodeRow& r : d.code)
        out += fmt::format(
            "    {:>#6x} {:<20} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} "
            "{:>4} {:>7} {:>7} {:<18} {:<28} {:<24} {:<12} {}\n",
            r.offset, escape_control(r.field), count_text(r.rmt_hitm), count_text(r.lcl_hitm),
            count_text(r.store_l1_hit), count_text(r.store_l1_miss), cycles(r.rmt_hitm_cycles),
            cycles(r.lcl_hitm_cycles), cycles(r.load_cycles), count_text(r.records),
            count_text(r.cpu_count), text_of(r.pid), text_of(r.tid), text_of(r.code_address),
            text_of(r.symbol), text_of(r.source), text_of(r.object), text_of(r.cpus));
    return out;
}

nlohmann::json drilldown_json(const analysis::LineDrilldown& d) {
    return {{"lcl_hitm", json_or_null(d.lcl_hitm)},
            {"rmt_hitm", json_or_null(d.rmt_hitm)},
            {"node", json_or_null(d.node)},
            {"mean_load_cycles", json_or_null(d.mean_load_cycles)},
            {"cycles_estimated", d.cycles_estimated},
            {"code", code_rows_json(d.code)},
            {"no_code_reason", json_or_null(d.no_code_reason)}};
}

} // namespace

nlohmann::json code_rows_json(const std::vector<analysis::CodeRow>& rows) {
    nlohmann::json out = nlohmann::json::array();
    for (const analysis::CodeRow& r : rows)
        out.push_back({{"offset", r.offset},
                       {"field", r.field},
                       {"code_address", json_or_null(r.code_address)},
                       {"symbol", json_or_null(r.symbol)},
                       {"object", json_or_null(r.object)},
                       {"source", json_or_null(r.source)},
                       {"pid", json_or_null(r.pid)},
                       {"tid", json_or_null(r.tid)},
                       {"cpus", json_or_null(r.cpus)},
                       {"cpu_count", json_or_null(r.cpu_count)},
                       {"rmt_hitm", json_or_null(r.rmt_hitm)},
                       {"lcl_hitm", json_or_null(r.lcl_hitm)},
                       {"store_l1_hit", json_or_null(r.store_l1_hit)},
                       {"store_l1_miss", json_or_null(r.store_l1_miss)},
                       {"records", json_or_null(r.records)},
                       {"rmt_hitm_cycles_mean", json_or_null(r.rmt_hitm_cycles)},
                       {"lcl_hitm_cycles_mean", json_or_null(r.lcl_hitm_cycles)},
                       {"load_cycles_mean", json_or_null(r.load_cycles)}});
    return out;
}

std::string format_c2c_report(const store::C2cData& data, const std::string& title,
                              const C2cReportOptions& options) {
    const auto& r = data.result;
    const std::optional<std::uint64_t> ops = data.traced_ops();
    const std::optional<RateBasis> basis = rate_basis(data);
    const std::string per = rate_suffix(basis);
    const store::ShownCounts totals = data.shown(r.totals);
    std::string out = fmt::format("# {}\n", title);
    out += section("Trace Event Information");
    out += stat("Total records", r.records);
    out += stat("Traced operations", ops);
    if (data.trace.capture_hitm) // a capture's: every HITM, on the lines printed or not
        out += stat("Captured HITM (all lines)", data.trace.capture_hitm);
    out += stat("Dropped records", data.dropped_records());
    out += stat("CPU migrations seen", data.cpu_migrations());
    out += stat("Load Operations", totals.loads);
    out += stat("Store Operations (incl. RMW/CAS)", totals.stores);
    out += stat("L1 hits", totals.l1_hit);
    out += stat("Load HITM", totals.load_hitm);
    out += stat("Store HITM (ownership from M)", totals.store_hitm);
    out += stat("Clean forwards", totals.clean_forward);
    out += stat("Stores to shared lines", totals.store_shared);
    out += stat("Invalidations", totals.invalidations);
    out += stat("Cold misses", totals.cold);
    out += fmt::format("  {:<34}: {:>10}\n", "Model caches",
                       r.model_cpus == c2c::ModelCpus::thread ? "per thread" : "recorded CPUs");
    out += fmt::format("  {:<34}: {:>10}\n", "Line size", r.line_size);
    out += fmt::format("  {:<34}: {:>10}\n", "Timestamps per", data.trace.clock);

    const auto lines = ranked_lines(r, options.only_shared);
    out += section("Shared Data Cache Line Table");
    const auto columns = analysis::run_line_columns(basis, analysis::LineTable::text);
    out += text_row(columns, [](const analysis::CachelineColumn& c) { return c.header; });
    for (const analysis::CachelineRow& row : analysis::cacheline_rows(data, {options.only_shared}))
        out += text_row(columns, [&](const analysis::CachelineColumn& c) {
            return escape_control(analysis::cell_text(row, c));
        });
    if (lines.empty())
        out += "  (no line had a transfer)\n";

    out += section("Shared Cache Line Distribution Pareto");
    for (std::size_t i = 0; i < lines.size() && i < options.max_lines; ++i) {
        const auto& l = *lines[i];
        const store::ShownCounts c = data.shown(l.counts);
        out += fmt::format(
            "{}\n  {:>4}  {}  {:#x}  Tot Hitm {} ({})  transfers {}{}\n{}\n", std::string(110, '-'),
            i, line_name(data, l.line), l.line.address, c.hitm, rate_phrase(c.hitm, basis),
            count_text(c.transfers),
            // A share is of the HITMs: transfers, which hold more than HITMs, have none.
            is_share(basis) ? "" : " (" + rate_phrase(c.transfers, basis) + ")",
            std::string(110, '-'));
        out +=
            fmt::format("  {:>6} {:<20} {:>4} {:>9} {:>9} {:>10} {:>9} {:>10} {:>9} {:>9} {:>10}\n",
                        "Offset", "Field", "Size", "LoadHitm", "StoreHitm", "Hitm" + per, "Xfer",
                        "Xfer" + per, "Loads", "Stores", "cycles");
        for (const auto& f : r.fields) {
            if (f.line != l.line || f.counts.accesses() == 0)
                continue;
            const store::ShownCounts fc = data.shown(f.counts);
            out += fmt::format("  {:>#6x} {:<20} {:>4} {:>9} {:>9} {:>10} {:>9} {:>10} {:>9} "
                               "{:>9} {:>10}\n",
                               f.offset, escape_control(f.field_name), f.size, fc.load_hitm,
                               count_text(fc.store_hitm), rate_text(fc.hitm, basis),
                               count_text(fc.transfers), rate_text(fc.transfers, basis), fc.loads,
                               fc.stores, cycles_text(fc.stall_cycles));
        }
        out += fmt::format("  per CPU: {}\n", cpu_split(data, l.line));
        if (options.drilldown && sampled(data))
            if (const auto d = options.drilldown->find(l.line.address);
                d != options.drilldown->end())
                out += drilldown_text(d->second);
        std::vector<const c2c::PairStats*> pairs;
        for (const auto& p : r.pairs)
            if (p.line == l.line)
                pairs.push_back(&p);
        std::stable_sort(pairs.begin(), pairs.end(), [](const auto* a, const auto* b) {
            return a->counts.hitm() + a->counts.store_shared >
                   b->counts.hitm() + b->counts.store_shared;
        });
        if (!pairs.empty())
            out += "  who takes the line from whom (accessor <- last writer):\n";
        for (const auto* p : pairs)
            out += fmt::format("    {:<20} <- {:<20} {:<6} sharing  hitm {:>9} ({})  "
                               "store-to-shared {:>7}\n",
                               escape_control(p->accessor_name),
                               p->writer.has_value() ? escape_control(p->writer_name)
                                                     : "(never written)",
                               p->true_sharing ? "true" : "false", p->counts.hitm(),
                               rate_phrase(p->counts.hitm(), basis), p->counts.store_shared);
    }
    return out;
}

nlohmann::json c2c_report_json(const store::C2cData& data, const C2cReportOptions& options) {
    const auto& r = data.result;
    const std::optional<std::uint64_t> ops = data.traced_ops();
    auto counts_json = [&](const c2c::ClassCounts& counts) {
        const store::ShownCounts c = data.shown(counts);
        return nlohmann::json{
            {"l1_hit", c.l1_hit},
            {"load_hitm", c.load_hitm},
            {"store_hitm", json_or_null(c.store_hitm)},
            {"hitm", c.hitm},
            {"hitm_per_1k_ops", json_or_null(per_thousand(c.hitm, ops))},
            {"hitm_share_percent", json_or_null(hitm_share(c.hitm, data))},
            {"clean_forward", c.clean_forward},
            {"store_shared", json_or_null(c.store_shared)},
            {"invalidations", json_or_null(c.invalidations)},
            {"transfers", json_or_null(c.transfers)},
            {"transfers_per_1k_ops", json_or_null(per_thousand(c.transfers, ops))},
            {"cold", c.cold},
            {"loads", c.loads},
            {"stores", c.stores},
            {"stall_cycles", json_or_null(c.stall_cycles)}};
    };
    nlohmann::json out{{"records", r.records},
                       {"traced_ops", json_or_null(ops)},
                       {"capture_hitm", json_or_null(data.trace.capture_hitm)},
                       {"dropped_records", json_or_null(data.dropped_records())},
                       {"line_size", r.line_size},
                       {"model_cpus", c2c::to_string(r.model_cpus)},
                       {"clock", data.trace.clock},
                       {"totals", counts_json(r.totals)},
                       {"lines", nlohmann::json::array()}};
    for (const auto* l : ranked_lines(r, options.only_shared)) {
        const engine::ObjectInfo* o = store::find_object(data, l->line.object);
        nlohmann::json line{
            {"address", l->line.address},       {"object", o ? o->name : ""},
            {"line_index", l->line.index},      {"fields_on_line", fields_on_line(data, l->line)},
            {"counts", counts_json(l->counts)}, {"fields", nlohmann::json::array()},
            {"cpus", nlohmann::json::array()},  {"pairs", nlohmann::json::array()}};
        for (const auto& f : r.fields)
            if (f.line == l->line)
                line["fields"].push_back({{"offset", f.offset},
                                          {"size", f.size},
                                          {"field", f.field_name},
                                          {"counts", counts_json(f.counts)}});
        for (const auto& c : r.cpus)
            if (c.line == l->line)
                line["cpus"].push_back({{"cpu", c.cpu}, {"counts", counts_json(c.counts)}});
        if (options.drilldown && sampled(data))
            if (const auto d = options.drilldown->find(l->line.address);
                d != options.drilldown->end())
                line["drilldown"] = drilldown_json(d->second);
        for (const auto& p : r.pairs)
            if (p.line == l->line)
                line["pairs"].push_back(
                    {{"accessor", p.accessor_name},
                     {"writer", p.writer ? nlohmann::json(p.writer_name) : nlohmann::json()},
                     {"true_sharing", p.true_sharing},
                     {"load_hitm", p.counts.load_hitm},
                     {"store_hitm", p.counts.store_hitm},
                     {"store_shared", p.counts.store_shared},
                     {"invalidations", p.counts.invalidations}});
        out["lines"].push_back(line);
    }
    return out;
}

} // namespace hitmap::report
