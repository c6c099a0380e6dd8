#pragma once
// The replay's engine, one access at a time: resolves where an access lands, runs it through
// the MESI model, charges its estimated cost and counts it. The trace replay (replay.cpp)
// feeds it a merged trace; a caller that makes accesses one by one can feed it the same way.
#include "collector/c2c/address_map.hpp"
#include "collector/c2c/attribution.hpp"
#include "collector/c2c/coherence_model.hpp"
#include "collector/c2c/cost_model.hpp"
#include "collector/c2c/replay.hpp"

#include <map>
#include <optional>
#include <tuple>

namespace hitmap::c2c {

// Where an access lands: its first line part, and how many parts (2 if split across lines).
struct AccessSlot {
    static constexpr std::uint32_t kValid = 1u << 24;

    std::uint32_t match = 0; // offset | log2 size << 16 | kValid; 0 = nothing cached
    std::uint32_t first_part = 0;
    std::uint32_t parts = 0;
    LineSpan span; // the first part's

    static std::uint32_t match_of(const engine::TraceRecord& r) {
        return r.offset | ((r.kind_size & 0x1cu) << 14) | kValid;
    }
};

// What a miss costs: the cycles the attribution records for it. The replay prices it from its
// cost table (TablePricer); the simulator by where the line came from on its machine. A pricer
// has double stall(std::uint32_t line, const Outcome& o, const engine::TraceRecord& r).
class TablePricer {
public:
    TablePricer(const CostTable& table, std::size_t lines)
        : costs_(table, lines) {}
    double l1_hit() const { return costs_.l1_hit(); }
    double stall(std::uint32_t line, const Outcome& o, const engine::TraceRecord& r) {
        return costs_.charge(line, r.tsc(), o.cls, r.kind());
    }

private:
    CostModel costs_;
};

class ReplayCore {
public:
    ReplayCore(const std::vector<engine::ObjectInfo>& objects, const ReplayConfig& config);

    CpuIndex add_cpu(std::uint32_t id) { return attribution_.add_cpu(id); }
    std::size_t line_count() const { return map_.line_count(); }

    // Throws ReplayError when the access does not fit its object or layout.
    void step(CpuIndex cpu, const engine::TraceRecord& r) { step(cpu, r, table_); }

    // The same, priced by `pricer`; returns the line of the access's first part.
    template <class Pricer>
    std::uint32_t step(CpuIndex cpu, const engine::TraceRecord& r, Pricer& pricer) {
        const AccessSlot& slot = slot_of(r);
        const bool write = engine::is_write(r.kind());
        if (slot.parts == 1) [[likely]] {
            account(r, slot.first_part, slot.span, cpu, write, pricer);
        } else {
            for (std::uint32_t p = slot.first_part; p < slot.first_part + slot.parts; ++p)
                account(r, p, attribution_.part(p).span, cpu, write, pricer);
        }
        return slot.span.line;
    }

    // A dense line's virtual byte address.
    std::uint64_t line_address(std::uint32_t line) const { return map_.line(line).address; }
    // The line an access would touch first, without making it.
    std::uint32_t line_of(const engine::TraceRecord& r) { return slot_of(r).span.line; }
    // Whether the access's first part would hit, without making it; on a miss,
    // on_miss(line, LineView) sees the line's state.
    template <class OnMiss>
    bool hits(CpuIndex cpu, const engine::TraceRecord& r, OnMiss&& on_miss) {
        const std::uint32_t line = slot_of(r).span.line;
        return model_.hits(line, cpu, engine::is_write(r.kind()),
                           [&](const LineView& before) { on_miss(line, before); });
    }

    // `l1_hit_cycles` prices the hits; by default the cost table's.
    ReplayResult finish(std::uint64_t records, ModelCpus model_cpus,
                        std::optional<double> l1_hit_cycles = std::nullopt) {
        return attribution_.build(map_, l1_hit_cycles.value_or(table_.l1_hit()), records,
                                  model_cpus);
    }

private:
    const AccessSlot& slot_of(const engine::TraceRecord& r) {
        const std::size_t fi = (std::size_t{r.object} << 8) | r.field;
        return fi < fast_.size() && fast_[fi].match == AccessSlot::match_of(r) ? fast_[fi]
                                                                               : resolve(r);
    }

    template <class Pricer>
    void account(const engine::TraceRecord& r, std::uint32_t part, const LineSpan& span,
                 CpuIndex cpu, bool write, Pricer& pricer) {
        const Outcome o = model_.access(span.line, cpu, write, span.lo, span.hi, part);
        Attribution::Cell& cell = attribution_.cell(part, cpu);
        Attribution::count(cell, o.cls, write);
        if (o.cls != AccessClass::l1_hit) [[unlikely]] {
            cell.stall_cycles += pricer.stall(span.line, o, r);
            on_miss(part, o, cell);
        }
    }

    [[gnu::noinline]] void on_miss(std::uint32_t part, const Outcome& o, Attribution::Cell& cell);
    [[gnu::noinline]] const AccessSlot& resolve(const engine::TraceRecord& r);

    AddressMap map_;
    CoherenceModel model_;
    TablePricer table_;
    Attribution attribution_;
    std::vector<AccessSlot> fast_; // [object << 8 | field]
    std::map<std::tuple<engine::ObjectId, engine::FieldId, std::uint16_t, std::uint8_t>, AccessSlot>
        slots_;
};

} // namespace hitmap::c2c
