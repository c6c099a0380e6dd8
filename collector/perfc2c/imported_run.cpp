#include "collector/perfc2c/imported_run.hpp"

#include "collector/perfc2c/errors.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <set>
#include <tuple>

namespace hitmap::perfc2c {

namespace {

// The field id of a Pareto offset that no field of a placed layout covers (padding, or the
// bytes of a line before the struct starts); its row keeps the offset as its name.
constexpr engine::FieldId kNoField = std::numeric_limits<engine::FieldId>::max();

// What a report can say: not the classes line_counts() lists, nor the counters of a trace of ours
// (operations, drops, migrations), of which an import has none.
constexpr store::KnownCounts kReportCounts = store::KnownCounts::none();

std::string hex(std::uint64_t v) {
    return fmt::format("{:#x}", v);
}

// "LLC Misses to Remote cache (HITM)" -> "llc_misses_to_remote_cache_hitm".
std::string slug(std::string_view label) {
    std::string s;
    for (const char c : label) {
        const bool alnum =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (alnum)
            s += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        else if (!s.empty() && s.back() != '_')
            s += '_';
    }
    while (!s.empty() && s.back() == '_')
        s.pop_back();
    return s;
}

class Metrics {
public:
    explicit Metrics(std::vector<store::Metric>& to)
        : to_(to) {}
    void add(std::string name, double value, std::string unit) {
        store::Metric m;
        m.name = "perf_c2c." + std::move(name);
        m.value = value;
        m.unit = std::move(unit);
        m.source = store::Source::imported;
        to_.push_back(std::move(m));
    }
    template <class T> void add(std::string name, const std::optional<T>& value, std::string unit) {
        if (value) // a column this perf did not print is no metric, not a 0
            add(std::move(name), static_cast<double>(*value), std::move(unit));
    }

private:
    std::vector<store::Metric>& to_;
};

void add_stats(Metrics& m, const std::vector<Stat>& stats, std::string_view section) {
    for (const Stat& s : stats)
        m.add(fmt::format("{}.{}", section, slug(s.label)), s.value, s.percent ? "%" : "samples");
}

// A Pareto row's share of one of its line's counts. The text prints two-decimal percentages of
// the line's banner counts, so a reconstructed count can be one sample off.
std::uint64_t share(double percent, std::uint64_t total) {
    return static_cast<std::uint64_t>(std::llround(percent / 100.0 * static_cast<double>(total)));
}

// What the counts mean in hitmap's classes. perf does not give store HITMs and stores to shared
// lines (Intel and AMD stores carry no snoop result, Arm SPE stores no level), the copies those
// invalidated, or stall cycles (the text has only mean load weights per Pareto row, kept as
// metrics): they stay 0 here and kReportCounts marks them unknown.
c2c::ClassCounts line_counts(const SharedLine& l, bool peer) {
    c2c::ClassCounts c;
    c.load_hitm = l.hitm();
    c.l1_hit = l.l1_hit + l.store_l1_hit;
    // A clean copy from another cache: a remote HIT; on Arm also a local peer's (its remote
    // peer loads are already in RmtHit).
    c.clean_forward = l.rmt_hit + (peer ? l.lcl_peer.value_or(0) : 0);
    c.cold = l.dram_lcl + l.dram_rmt;
    c.loads = l.loads;
    c.stores = l.stores;
    return c;
}

c2c::ClassCounts row_counts(const ParetoRow& r, const ParetoLine& p, bool peer) {
    c2c::ClassCounts c;
    const std::uint64_t costly = share(r.rmt_percent, p.rmt) + share(r.lcl_percent, p.lcl);
    (peer ? c.clean_forward : c.load_hitm) = costly;
    c.l1_hit = share(r.store_l1_hit_percent, p.store_l1_hit); // a row's load L1 hits: not printed
    c.stores = c.l1_hit + share(r.store_l1_miss_percent, p.store_l1_miss) +
               share(r.store_na_percent.value_or(0), p.store_na.value_or(0));
    // Rows print their records (loads + stores) from ~2020 on; a 2016 row counts only the loads
    // it shows, its HITMs.
    c.loads = r.records ? (*r.records > c.stores ? *r.records - c.stores : 0) : costly;
    return c;
}

// The most metrics add_line_metrics() and add_row_metrics() add, so that the import reserves
// them at once: a large report has millions, and a vector grown by doubling holds up to twice
// their size, and both buffers while it moves them.
constexpr std::size_t kMetricsPerLine = 21;
constexpr std::size_t kMetricsPerRow = 12;

void add_line_metrics(Metrics& m, const SharedLine& l, bool peer) {
    const std::string p = fmt::format("line.{}.", hex(l.address));
    m.add(p + "index", static_cast<double>(l.index), "");
    m.add(p + (peer ? "peer_percent" : "hitm_percent"), l.costly_percent, "%");
    m.add(p + "pa_count", l.pa_count, "changes");
    m.add(p + "lcl_hitm", static_cast<double>(l.lcl_hitm), "samples");
    m.add(p + "rmt_hitm", static_cast<double>(l.rmt_hitm), "samples");
    m.add(p + "lcl_peer", l.lcl_peer, "samples");
    m.add(p + "rmt_peer", l.rmt_peer, "samples");
    m.add(p + "records", l.records, "samples");
    m.add(p + "loads", static_cast<double>(l.loads), "samples");
    m.add(p + "stores", static_cast<double>(l.stores), "samples");
    m.add(p + "store_l1_hit", static_cast<double>(l.store_l1_hit), "samples");
    m.add(p + "store_l1_miss", static_cast<double>(l.store_l1_miss), "samples");
    m.add(p + "store_na", l.store_na, "samples");
    m.add(p + "load_fill_buffer_hit", static_cast<double>(l.fill_buffer_hit), "samples");
    m.add(p + "load_l1_hit", static_cast<double>(l.l1_hit), "samples");
    m.add(p + "load_l2_hit", static_cast<double>(l.l2_hit), "samples");
    m.add(p + "load_llc_hit", static_cast<double>(l.llc_hit), "samples");
    m.add(p + "load_rmt_hit", static_cast<double>(l.rmt_hit), "samples");
    m.add(p + "load_dram_lcl", static_cast<double>(l.dram_lcl), "samples");
    m.add(p + "load_dram_rmt", static_cast<double>(l.dram_rmt), "samples");
    m.add(p + "llc_load_miss", l.llc_miss, "samples");
}

void add_row_metrics(Metrics& m, const ParetoRow& r, std::uint64_t address, std::size_t k,
                     bool peer) {
    const std::string p = fmt::format("line.{}.row{}.", hex(address), k);
    const std::string costly = peer ? "peer" : "hitm";
    m.add(p + "offset", static_cast<double>(r.offset), "bytes");
    m.add(p + "rmt_" + costly + "_percent", r.rmt_percent, "%");
    m.add(p + "lcl_" + costly + "_percent", r.lcl_percent, "%");
    m.add(p + "store_l1_hit_percent", r.store_l1_hit_percent, "%");
    m.add(p + "store_l1_miss_percent", r.store_l1_miss_percent, "%");
    m.add(p + "store_na_percent", r.store_na_percent, "%");
    m.add(p + "pa_count", r.pa_count, "changes");
    m.add(p + "rmt_" + costly + "_cycles_mean", static_cast<double>(r.rmt_cycles), "cycles");
    m.add(p + "lcl_" + costly + "_cycles_mean", static_cast<double>(r.lcl_cycles), "cycles");
    m.add(p + "load_cycles_mean", static_cast<double>(r.load_cycles), "cycles");
    m.add(p + "records", r.records, "samples");
    m.add(p + "cpu_count", static_cast<double>(r.cpu_count), "cpus");
}

nlohmann::json optional_text(const std::optional<std::string>& s) {
    return s ? nlohmann::json(*s) : nlohmann::json();
}

nlohmann::json code_of(const SharedLine& l, const ParetoLine* p) {
    nlohmann::json rows = nlohmann::json::array();
    if (p)
        for (const ParetoRow& r : p->rows)
            rows.push_back({{"offset", hex(r.offset)},
                            {"code_address", r.code_address ? nlohmann::json(hex(*r.code_address))
                                                            : nlohmann::json()},
                            {"symbol", r.symbol},
                            {"object", r.object},
                            {"source", optional_text(r.source)},
                            {"node", optional_text(r.node)},
                            {"offset_node", optional_text(r.offset_node)},
                            {"pid", optional_text(r.pid)},
                            {"tid", optional_text(r.tid)}});
    return {{"address", hex(l.address)},
            {"index", l.index},
            {"node", optional_text(l.node)},
            {"rows", std::move(rows)}};
}

// A line's own object: one field per Pareto offset, reaching to the next one (perf prints
// where accesses start, not their size).
engine::Layout synthesized_layout(const engine::StructType& type,
                                  const std::vector<std::uint32_t>& offsets, std::uint64_t address,
                                  std::uint32_t line_size) {
    engine::Layout layout{&type, hex(address), line_size, line_size, {}};
    for (std::size_t i = 0; i < offsets.size(); ++i) {
        const std::uint32_t end = i + 1 < offsets.size() ? offsets[i + 1] : line_size;
        layout.placement.push_back(engine::FieldPlacement{offsets[i], end - offsets[i]});
    }
    return layout;
}

struct FieldName {
    engine::FieldId id = kNoField;
    std::string name;
    std::uint32_t size = 0;
};

// The field of a placed layout at byte `offset` of the line at `address`, if any.
std::optional<FieldName> placed_field(const PlacedLayout& p, std::uint64_t address,
                                      std::uint32_t offset) {
    const std::uint64_t at = address + offset;
    if (at < p.base || at >= p.base + p.layout.size)
        return std::nullopt;
    const std::uint64_t in_struct = at - p.base;
    for (engine::FieldId f = 0; f < p.layout.placement.size(); ++f)
        if (p.layout.has(f) && in_struct >= p.layout.at(f).offset &&
            in_struct < p.layout.at(f).offset + p.layout.at(f).size)
            return FieldName{f, p.layout.type->fields[f], p.layout.at(f).size};
    return std::nullopt;
}

// A Pareto offset of a placed object's line in none of its fields: "+0x48 (no field of
// page_counter v6.0)" inside the struct, "-0x8 (before page_counter)" or "+0xc0 (after ...)"
// in the line's bytes around it.
std::string gap_name(const PlacedLayout& p, std::uint64_t at) {
    const std::string& type = p.layout.type->name;
    if (at < p.base)
        return fmt::format("-{:#x} (before {})", p.base - at, type);
    if (at >= p.base + p.layout.size)
        return fmt::format("+{:#x} (after {})", at - p.base, type);
    return fmt::format("+{:#x} (no field of {} {})", at - p.base, type, p.layout.version);
}

bool covers(const PlacedLayout& p, std::uint64_t line, std::uint32_t line_size) {
    return line < p.base + p.layout.size && line + line_size > p.base;
}

} // namespace

ImportedC2c import_report(const C2cReport& report, const std::vector<PlacedLayout>& placed,
                          UncoveredLayout uncovered) {
    ImportedC2c out;
    out.notes = report.notes;
    std::size_t rows = 0;
    for (const ParetoLine& p : report.pareto)
        rows += p.rows.size();
    out.metrics.reserve(report.trace.size() + report.shared.size() +
                        kMetricsPerLine * report.lines.size() + kMetricsPerRow * rows + 2);
    Metrics metrics(out.metrics);
    add_stats(metrics, report.trace, "trace");
    add_stats(metrics, report.shared, "shared");
    if (report.stats_only) {
        if (!placed.empty() && uncovered == UncoveredLayout::refuse)
            throw LayoutPlacementError("a --stats report has no lines to place a layout on");
        return out;
    }
    const bool peer = report.peer_mode;

    // perf groups by 128-byte "double cachelines" with --double-cl: offsets reach past 64.
    std::uint32_t line_size = 64;
    for (const ParetoLine& p : report.pareto)
        for (const ParetoRow& r : p.rows)
            if (r.offset >= 64)
                line_size = 128;

    store::C2cData& data = out.data.emplace();
    data.trace.path.reset();
    data.trace.format = store::kPerfC2cReportFormat;
    data.trace.clock = "sampled"; // perf's counts are of the PMU's sample records
    data.trace.threads = 0;       // the text does not say; no trace is kept
    data.trace.records = static_cast<std::uint64_t>(report.trace_stat("Total records").value_or(0));
    data.trace.line_size = line_size;
    data.trace.cost_table = "none (imported)";
    data.trace.known = kReportCounts;
    c2c::ReplayResult& result = data.result;
    result.line_size = line_size;
    result.records = data.trace.records;

    for (std::size_t k = 0; k < placed.size(); ++k) {
        const PlacedLayout& p = placed[k];
        for (std::size_t j = 0; j < k; ++j)
            if (p.base < placed[j].base + placed[j].layout.size &&
                placed[j].base < p.base + p.layout.size)
                throw LayoutPlacementError(
                    fmt::format("{} at {} overlaps {} at {}", p.layout.type->name, hex(p.base),
                                placed[j].layout.type->name, hex(placed[j].base)));
        if (uncovered == UncoveredLayout::refuse &&
            std::none_of(report.lines.begin(), report.lines.end(),
                         [&](const SharedLine& l) { return covers(p, l.address, line_size); }))
            throw LayoutPlacementError(fmt::format("{} at {} ({} bytes) covers no shared line of "
                                                   "the report",
                                                   p.layout.type->name, hex(p.base),
                                                   p.layout.size));
        data.objects.push_back(engine::ObjectInfo{
            static_cast<engine::ObjectId>(k),
            p.name.value_or(fmt::format("{}@{}", p.layout.type->name, hex(p.base))), p.layout,
            static_cast<std::uint32_t>(p.base % 64)});
    }

    std::map<std::uint64_t, const ParetoLine*> pareto_of; // by line index
    for (const ParetoLine& p : report.pareto)
        pareto_of[p.index] = &p;
    std::size_t outside = 0;
    std::uint64_t shown_hitm = 0;
    for (const SharedLine& l : report.lines) {
        const auto found = pareto_of.find(l.index);
        const ParetoLine* p = found == pareto_of.end() ? nullptr : found->second;
        std::set<std::uint32_t> offset_set;
        if (p)
            for (const ParetoRow& r : p->rows)
                offset_set.insert(r.offset);
        const std::vector<std::uint32_t> offsets(offset_set.begin(), offset_set.end());

        const auto owner = std::find_if(placed.begin(), placed.end(), [&](const PlacedLayout& pl) {
            return covers(pl, l.address, line_size);
        });
        c2c::LineKey key{0, 0, l.address};
        if (owner != placed.end()) {
            key.object = static_cast<engine::ObjectId>(owner - placed.begin());
            key.index = static_cast<std::uint32_t>(
                (l.address - (owner->base - owner->base % line_size)) / line_size);
        } else {
            // The parser took at most kMaxSharedLines lines; placed layouts add objects.
            if (data.objects.size() >= kMaxSharedLines)
                throw LayoutPlacementError(
                    fmt::format("{} shared lines and {} placed layouts: more than a run's {} "
                                "objects",
                                report.lines.size(), placed.size(), kMaxSharedLines));
            auto& type = *out.types.emplace_back(std::make_unique<engine::StructType>());
            type.name = "perf-c2c line";
            for (const std::uint32_t o : offsets)
                type.fields.push_back(fmt::format("+{:#x}", o));
            key.object = static_cast<engine::ObjectId>(data.objects.size());
            data.objects.push_back(
                engine::ObjectInfo{key.object, hex(l.address),
                                   synthesized_layout(type, offsets, l.address, line_size), 0});
        }
        result.lines.push_back({key, line_counts(l, peer)});
        shown_hitm += l.hitm();
        add_line_metrics(metrics, l, peer);
        out.code.push_back(code_of(l, p));
        if (!p)
            continue;

        std::map<std::pair<std::uint32_t, engine::FieldId>, c2c::FieldStats> fields;
        for (std::size_t k = 0; k < p->rows.size(); ++k) {
            const ParetoRow& r = p->rows[k];
            add_row_metrics(metrics, r, l.address, k, peer);
            const auto next = std::upper_bound(offsets.begin(), offsets.end(), r.offset);
            FieldName name{static_cast<engine::FieldId>(next - offsets.begin() - 1),
                           fmt::format("+{:#x}", r.offset),
                           (next == offsets.end() ? line_size : *next) - r.offset};
            if (owner != placed.end()) {
                if (auto f = placed_field(*owner, l.address, r.offset)) {
                    name = std::move(*f);
                } else {
                    name.id = kNoField;
                    name.name = gap_name(*owner, l.address + r.offset);
                    ++outside;
                }
            }
            c2c::FieldStats& f = fields[{r.offset, name.id}];
            f.line = key;
            f.offset = r.offset;
            f.size = std::min(name.size, line_size - r.offset);
            f.field = name.id;
            f.field_name = name.name;
            f.counts += row_counts(r, *p, peer);
        }
        for (auto& [where, f] : fields)
            result.fields.push_back(std::move(f));
    }
    if (outside > 0)
        out.notes.push_back({0, fmt::format("{} Pareto row{} of the placed layout's lines fall in "
                                            "none of its fields; they are named by their offset "
                                            "in it",
                                            outside, outside == 1 ? "" : "s")});
    std::sort(result.lines.begin(), result.lines.end(),
              [](const c2c::LineStats& a, const c2c::LineStats& b) { return a.line < b.line; });
    std::sort(result.fields.begin(), result.fields.end(), [](const auto& a, const auto& b) {
        return std::tie(a.line, a.offset, a.field, a.size) <
               std::tie(b.line, b.offset, b.field, b.size);
    });
    for (const c2c::LineStats& l : result.lines)
        result.totals += l.counts;
    // A report without its trace statistics still counted the HITMs of the lines it printed.
    data.trace.capture_hitm = std::max(report.total_hitm(), shown_hitm);
    metrics.add("lines_shown", static_cast<double>(report.lines.size()), "lines");
    // perf hides lines under 0.1 % of the sort metric; their HITMs are in the trace totals only.
    metrics.add("hitm_not_shown",
                static_cast<double>(
                    report.total_hitm() > shown_hitm ? report.total_hitm() - shown_hitm : 0),
                "samples");
    return out;
}

} // namespace hitmap::perfc2c
