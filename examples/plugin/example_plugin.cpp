// An example workload plugin (docs/USAGE.md: "Writing a workload plugin"): a user struct whose hot
// counter shares a cacheline with read-mostly configuration, in two layouts. Every thread
// serves requests: it reads `limit` and `flags`, does half the request's work, bumps `hits`,
// and does the other half.
// In "packed" each configuration read finds the line taken by another CPU's count (false
// sharing); in "padded" the counter has a line of its own and the reads hit.
#include "engine/layout/layout_registry.hpp"
#include "engine/plugin/plugin_api.hpp"
#include "engine/probe/probed_object.hpp"
#include "engine/runtime/busy_work.hpp"

#include <memory>

namespace {

using namespace hitmap::engine;

enum Field : FieldId { hits, limit, flags, kFields };

const StructType* g_type = nullptr;
Site g_site_count{};
Site g_site_check{};

class HotCounterWorkload : public Workload {
public:
    HotCounterWorkload() {
        info_.name = "example-hot-counter";
        info_.seed = "plugin";
        info_.description =
            "example plugin: a request counter beside read-mostly configuration, every thread "
            "counting and checking";
        info_.variants = {{"packed", "counter and configuration on one line (24 bytes)"},
                          {"padded", "the counter alone on its line (128 bytes)"}};
        info_.params = {
            {"checks", 2u, "configuration reads per request (0..16)"},
            {"work_ns", 200u, "the request's own work, half before and half after the count"}};
        info_.layout_structs = {"request_stats"};
    }
    const WorkloadInfo& info() const override { return info_; }

    void validate(const WorkloadRunConfig& config) const override {
        Workload::validate(config);
        const unsigned checks = resolve_params(config)["checks"].get<unsigned>();
        if (checks > 16)
            throw WorkloadError("checks must be 0..16");
    }

    WorkloadResult run(const WorkloadRunConfig& config, const ThreadHooks& hooks) const override {
        const nlohmann::json p = resolve_params(config);
        const unsigned checks = p["checks"].get<unsigned>();
        const BusyWork half_work{std::chrono::nanoseconds(p["work_ns"].get<unsigned>() / 2)};
        const auto it = config.layouts.find("request_stats");
        const Layout& layout =
            it != config.layouts.end() ? it->second : *find_layout("request_stats", config.variant);
        WorkloadResult result;
        ProbedObject stats(result.objects, "request_stats", layout, 0);
        stats.poke(limit, 1000);
        run_workers(config, hooks, result,
                    [&](unsigned, const std::atomic<bool>& stop, TraceBuffer* trace) {
                        return counted_loop(config, stop, trace, [&](auto traced) {
                            constexpr bool T = decltype(traced)::value;
                            for (unsigned i = 0; i < checks; ++i)
                                (void)stats.load<T>(i % 2 ? flags : limit, g_site_check);
                            half_work.run();
                            stats.add_return<T>(hits, 1, g_site_count);
                            half_work.run();
                        });
                    });
        for (const std::uint64_t ops : result.ops_per_thread)
            result.ops += ops;
        result.resolved_params = p;
        result.resolved_params["layout"] = layout.version;
        result.stats = {{"hits", stats.peek(hits)}};
        return result;
    }

private:
    WorkloadInfo info_;
};

Layout request_stats_layout(std::string version, std::uint32_t size, std::uint32_t hits_at,
                            std::uint32_t config_at) {
    Layout l{g_type, std::move(version), size, 8, {}};
    l.placement = {FieldPlacement{hits_at, 8}, FieldPlacement{config_at, 8},
                   FieldPlacement{config_at + 8, 8}};
    return l;
}

void register_example(PluginRegistrar& registrar) {
    g_type = &registrar.struct_type({"request_stats", {"hits", "limit", "flags"}}, {8, 8, 8});
    registrar.layout(request_stats_layout("packed", 24, 0, 8));
    registrar.layout(request_stats_layout("padded", 128, 0, 64));
    g_site_count = registrar.site("request_count");
    g_site_check = registrar.site("request_check_config");
    static const HotCounterWorkload workload;
    registrar.workload(workload);
}

} // namespace

HITMAP_PLUGIN(register_example)
