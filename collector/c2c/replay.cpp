#include "collector/c2c/replay.hpp"

#include "collector/c2c/errors.hpp"
#include "collector/c2c/replay_core.hpp"
#include "collector/c2c/trace_merger.hpp"
#include "collector/support/enum_names.hpp"

#include <array>
#include <fmt/format.h>
#include <map>

namespace hitmap::c2c {

namespace {
constexpr std::array<support::EnumName<ModelCpus>, 2> kModelCpusNames{{
    {ModelCpus::recorded, "recorded"},
    {ModelCpus::thread, "thread"},
}};
} // namespace

std::string_view to_string(ModelCpus cpus) {
    return support::name_of(kModelCpusNames, cpus);
}
std::optional<ModelCpus> model_cpus_named(std::string_view name) {
    return support::value_named(kModelCpusNames, name);
}

namespace {

constexpr CpuIndex kNoCpu = UINT16_MAX;

class Replayer {
public:
    Replayer(std::span<const ThreadTrace> threads, const std::vector<engine::ObjectInfo>& objects,
             const ReplayConfig& config)
        : threads_(threads)
        , config_(config)
        , core_(objects, config) {
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
        return core_.finish(merger.records(), config_.model_cpus);
    }

private:
    template <ModelCpus M> void step(std::uint32_t stream, const engine::TraceRecord& r) {
        CpuIndex cpu =
            M == ModelCpus::recorded ? cpu_of_recorded_[r.cpu()] : cpu_of_stream_[stream];
        if (cpu == kNoCpu) [[unlikely]]
            cpu = add_cpu<M>(stream, r);
        // The handler costs nothing until a record does not fit; then it names the record.
        try {
            core_.step(cpu, r);
        } catch (const ReplayError& e) {
            const auto records = threads_[stream].records;
            throw ReplayError(fmt::format("thread {} record {}: {}", threads_[stream].thread,
                                          &r - records.data(), e.what()));
        }
    }

    template <ModelCpus M>
    [[gnu::noinline]] CpuIndex add_cpu(std::uint32_t stream, const engine::TraceRecord& r) {
        if constexpr (M == ModelCpus::recorded)
            return cpu_of_recorded_[r.cpu()] = core_.add_cpu(r.cpu());
        else
            return cpu_of_stream_[stream] = core_.add_cpu(threads_[stream].thread);
    }

    std::span<const ThreadTrace> threads_;
    const ReplayConfig& config_;
    ReplayCore core_;
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
