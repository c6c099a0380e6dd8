#include "collector/c2c/replay.hpp"

#include "collector/c2c/attribution.hpp"
#include "collector/c2c/coherence_model.hpp"
#include "collector/c2c/errors.hpp"

#include <fmt/format.h>
#include <map>
#include <tuple>

namespace hitmap::c2c {

namespace {

constexpr CpuIndex kNoCpu = UINT16_MAX;

// Per (object, field): where the access last seen there lands. Valid while records keep the
// same offset and size, which engine traces always do, so the hot loop resolves an access with
// one compare instead of a lookup. The first part's span is inlined for the unsplit case.
struct Slot {
    static constexpr std::uint32_t kValid = 1u << 24;

    std::uint32_t match = 0; // offset | log2 size << 16 | kValid; 0 = nothing cached
    std::uint32_t first_part = 0;
    std::uint32_t parts = 0; // 2 for an access split across two lines
    LineSpan span;           // the first part's

    static std::uint32_t match_of(const engine::TraceRecord& r) {
        return r.offset | ((r.kind_size & 0x1cu) << 14) | kValid;
    }
};

class Replayer {
public:
    Replayer(std::span<const ThreadTrace> threads, const std::vector<engine::ObjectInfo>& objects,
             const ReplayConfig& config)
        : threads_(threads)
        , config_(config)
        , map_(objects, config.line_size, config.phase_override, config.layouts)
        , model_(map_.line_count(), config.line_size)
        , costs_(config.costs, map_.line_count()) {
        std::size_t ids = 0;
        for (const auto& o : objects)
            ids = std::max(ids, std::size_t{o.id} + 1);
        fast_.resize(ids << 8);
        cpu_of_recorded_.assign(std::size_t{1} << 16, kNoCpu);
        cpu_of_stream_.assign(threads.size(), kNoCpu);
    }

    ReplayResult run() {
        const TraceMerger merger(threads_);
        if (config_.model_cpus == ModelCpus::recorded)
            merger.merge([this](std::uint32_t s, const engine::TraceRecord& r) {
                step<ModelCpus::recorded>(s, r);
            });
        else
            merger.merge([this](std::uint32_t s, const engine::TraceRecord& r) {
                step<ModelCpus::thread>(s, r);
            });
        return attribution_.build(map_, costs_.l1_hit(), merger.records(), config_.model_cpus);
    }

private:
    template <ModelCpus M> void step(std::uint32_t stream, const engine::TraceRecord& r) {
        CpuIndex cpu =
            M == ModelCpus::recorded ? cpu_of_recorded_[r.cpu()] : cpu_of_stream_[stream];
        if (cpu == kNoCpu) [[unlikely]]
            cpu = add_cpu<M>(stream, r);
        const std::size_t fi = (std::size_t{r.object} << 8) | r.field;
        const Slot& slot = fi < fast_.size() && fast_[fi].match == Slot::match_of(r)
                               ? fast_[fi]
                               : resolve(stream, r);
        const bool write = engine::is_write(r.kind());
        if (slot.parts == 1) [[likely]] {
            account(r, slot.first_part, slot.span, cpu, write);
        } else {
            for (std::uint32_t p = slot.first_part; p < slot.first_part + slot.parts; ++p)
                account(r, p, attribution_.part(p).span, cpu, write);
        }
    }

    void account(const engine::TraceRecord& r, std::uint32_t part, const LineSpan& span,
                 CpuIndex cpu, bool write) {
        const Outcome o = model_.access(span.line, cpu, write, span.lo, span.hi, part);
        Attribution::Cell& cell = attribution_.cell(part, cpu);
        Attribution::count(cell, o.cls, write);
        if (o.cls != AccessClass::l1_hit) [[unlikely]]
            on_miss(r, span.line, part, o, cell);
    }

    template <ModelCpus M>
    [[gnu::noinline]] CpuIndex add_cpu(std::uint32_t stream, const engine::TraceRecord& r) {
        if constexpr (M == ModelCpus::recorded)
            return cpu_of_recorded_[r.cpu()] = attribution_.add_cpu(r.cpu());
        else
            return cpu_of_stream_[stream] = attribution_.add_cpu(threads_[stream].thread);
    }

    [[gnu::noinline]] void on_miss(const engine::TraceRecord& r, std::uint32_t line,
                                   std::uint32_t part, const Outcome& o, Attribution::Cell& cell) {
        cell.stall_cycles += costs_.charge(line, r.tsc(), o.cls, r.kind());
        cell.invalidations += o.invalidations;
        if (o.cls == AccessClass::load_hitm || o.cls == AccessClass::store_hitm ||
            o.cls == AccessClass::store_shared)
            attribution_.add_pair(part, o);
    }

    // First sight of an (object, field, offset, size): place it, and cache it for the hot loop.
    [[gnu::noinline]] const Slot& resolve(std::uint32_t stream, const engine::TraceRecord& r) {
        const auto log2_size = static_cast<std::uint8_t>((r.kind_size >> 2) & 7u);
        auto [it, inserted] = slots_.try_emplace({r.object, r.field, r.offset, log2_size});
        Slot& slot = it->second;
        if (inserted) {
            AccessSpans spans;
            try {
                spans = map_.locate(r.object, r.field, r.offset, r.size());
            } catch (const ReplayError& e) {
                slots_.erase(it);
                const auto records = threads_[stream].records;
                throw ReplayError(fmt::format("thread {} record {}: {}", threads_[stream].thread,
                                              &r - records.data(), e.what()));
            }
            slot.match = Slot::match_of(r);
            // Parts of one access are numbered consecutively, so first_part + parts covers them.
            slot.first_part = attribution_.add_part({r.object, r.field, spans.spans[0]});
            for (std::uint32_t i = 1; i < spans.count; ++i)
                attribution_.add_part({r.object, r.field, spans.spans[i]});
            slot.parts = spans.count;
            slot.span = spans.spans[0];
        }
        const std::size_t fi = (std::size_t{r.object} << 8) | r.field;
        if (fi < fast_.size())
            fast_[fi] = slot;
        return slot;
    }

    std::span<const ThreadTrace> threads_;
    const ReplayConfig& config_;
    AddressMap map_;
    CoherenceModel model_;
    CostModel costs_;
    Attribution attribution_;
    std::vector<Slot> fast_; // [object << 8 | field]
    std::map<std::tuple<engine::ObjectId, engine::FieldId, std::uint16_t, std::uint8_t>, Slot>
        slots_;
    std::vector<CpuIndex> cpu_of_recorded_; // recorded CPU -> model CPU
    std::vector<CpuIndex> cpu_of_stream_;   // stream index -> model CPU
};

} // namespace

ReplayResult replay(std::span<const ThreadTrace> threads,
                    const std::vector<engine::ObjectInfo>& objects, const ReplayConfig& config) {
    return Replayer(threads, objects, config).run();
}

std::vector<FieldTransfers> field_transfers(const ReplayResult& result) {
    std::map<std::pair<engine::ObjectId, engine::FieldId>, FieldTransfers> by_field;
    for (const FieldStats& f : result.fields) {
        FieldTransfers& t = by_field[{f.line.object, f.field}];
        t.object = f.line.object;
        t.field = f.field;
        t.field_name = f.field_name;
        t.hitm += f.counts.hitm();
        t.transfers += f.counts.transfers();
        t.stall_cycles += f.counts.stall_cycles;
    }
    std::vector<FieldTransfers> out;
    for (auto& [key, t] : by_field)
        out.push_back(std::move(t));
    return out;
}

std::vector<PhasePoint> phase_sweep(std::span<const ThreadTrace> threads,
                                    const std::vector<engine::ObjectInfo>& objects,
                                    const ReplayConfig& config,
                                    std::span<const std::uint32_t> phases) {
    std::vector<PhasePoint> out;
    ReplayConfig at_phase = config;
    for (const std::uint32_t phase : phases) {
        at_phase.phase_override = phase;
        const ReplayResult result = replay(threads, objects, at_phase);
        out.push_back(PhasePoint{phase, result.totals.transfers(), field_transfers(result)});
    }
    return out;
}

} // namespace hitmap::c2c
