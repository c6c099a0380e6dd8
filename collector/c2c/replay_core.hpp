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

class ReplayCore {
public:
    ReplayCore(const std::vector<engine::ObjectInfo>& objects, const ReplayConfig& config);

    CpuIndex add_cpu(std::uint32_t id) { return attribution_.add_cpu(id); }

    // Throws ReplayError when the access does not fit its object or layout.
    void step(CpuIndex cpu, const engine::TraceRecord& r) {
        const std::size_t fi = (std::size_t{r.object} << 8) | r.field;
        const AccessSlot& slot = fi < fast_.size() && fast_[fi].match == AccessSlot::match_of(r)
                                     ? fast_[fi]
                                     : resolve(r);
        const bool write = engine::is_write(r.kind());
        if (slot.parts == 1) [[likely]] {
            account(r, slot.first_part, slot.span, cpu, write);
        } else {
            for (std::uint32_t p = slot.first_part; p < slot.first_part + slot.parts; ++p)
                account(r, p, attribution_.part(p).span, cpu, write);
        }
    }

    ReplayResult finish(std::uint64_t records, ModelCpus model_cpus) {
        return attribution_.build(map_, costs_.l1_hit(), records, model_cpus);
    }

private:
    void account(const engine::TraceRecord& r, std::uint32_t part, const LineSpan& span,
                 CpuIndex cpu, bool write) {
        const Outcome o = model_.access(span.line, cpu, write, span.lo, span.hi, part);
        Attribution::Cell& cell = attribution_.cell(part, cpu);
        Attribution::count(cell, o.cls, write);
        if (o.cls != AccessClass::l1_hit) [[unlikely]]
            on_miss(r, span.line, part, o, cell);
    }

    [[gnu::noinline]] void on_miss(const engine::TraceRecord& r, std::uint32_t line,
                                   std::uint32_t part, const Outcome& o, Attribution::Cell& cell);
    [[gnu::noinline]] const AccessSlot& resolve(const engine::TraceRecord& r);

    AddressMap map_;
    CoherenceModel model_;
    CostModel costs_;
    Attribution attribution_;
    std::vector<AccessSlot> fast_; // [object << 8 | field]
    std::map<std::tuple<engine::ObjectId, engine::FieldId, std::uint16_t, std::uint8_t>, AccessSlot>
        slots_;
};

} // namespace hitmap::c2c
