#pragma once
// The replay's engine, one access at a time: resolves where an access lands, runs it through
// the MESI model and counts it. The trace replay (replay.cpp) feeds it a merged trace; the
// simulator feeds it each access as a virtual CPU makes it, and charges its own latencies.
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

// What the first part of an access met and did.
struct StepOutcome {
    Outcome outcome;
    std::uint32_t line = 0;
    std::uint32_t part = 0;
};

class ReplayCore {
public:
    // `charge_costs`: estimate stall cycles with config.costs (the trace replay); false leaves
    // them to the caller's add_stall (the simulator's latencies).
    ReplayCore(const std::vector<engine::ObjectInfo>& objects, const ReplayConfig& config,
               bool charge_costs);

    CpuIndex add_cpu(std::uint32_t id) { return attribution_.add_cpu(id); }

    // Throws ReplayError when the access does not fit its object or layout.
    const AccessSlot& slot_of(const engine::TraceRecord& r) {
        const std::size_t fi = (std::size_t{r.object} << 8) | r.field;
        return fi < fast_.size() && fast_[fi].match == AccessSlot::match_of(r) ? fast_[fi]
                                                                               : resolve(r);
    }

    StepOutcome step(CpuIndex cpu, const engine::TraceRecord& r) {
        const AccessSlot& slot = slot_of(r);
        const bool write = engine::is_write(r.kind());
        StepOutcome first{account(r, slot.first_part, slot.span, cpu, write), slot.span.line,
                          slot.first_part};
        for (std::uint32_t p = slot.first_part + 1; p < slot.first_part + slot.parts; ++p)
            account(r, p, attribution_.part(p).span, cpu, write);
        return first;
    }

    const CoherenceModel& model() const { return model_; }
    void add_stall(std::uint32_t part, CpuIndex cpu, double cycles) {
        attribution_.cell(part, cpu).stall_cycles += cycles;
    }

    ReplayResult finish(std::uint64_t records, ModelCpus model_cpus, double l1_hit_cycles) {
        return attribution_.build(map_, l1_hit_cycles, records, model_cpus);
    }
    double l1_hit_cycles() const { return config_.costs.l1_hit; }

private:
    Outcome account(const engine::TraceRecord& r, std::uint32_t part, const LineSpan& span,
                    CpuIndex cpu, bool write) {
        const Outcome o = model_.access(span.line, cpu, write, span.lo, span.hi, part);
        Attribution::Cell& cell = attribution_.cell(part, cpu);
        Attribution::count(cell, o.cls, write);
        if (o.cls != AccessClass::l1_hit) [[unlikely]]
            on_miss(r, span.line, part, o, cell);
        return o;
    }

    [[gnu::noinline]] void on_miss(const engine::TraceRecord& r, std::uint32_t line,
                                   std::uint32_t part, const Outcome& o, Attribution::Cell& cell);
    [[gnu::noinline]] const AccessSlot& resolve(const engine::TraceRecord& r);

    ReplayConfig config_;
    AddressMap map_;
    CoherenceModel model_;
    std::optional<CostModel> costs_;
    Attribution attribution_;
    std::vector<AccessSlot> fast_; // [object << 8 | field]
    std::map<std::tuple<engine::ObjectId, engine::FieldId, std::uint16_t, std::uint8_t>, AccessSlot>
        slots_;
};

} // namespace hitmap::c2c
