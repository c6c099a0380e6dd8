// A plugin whose workload throws something that is not a std::exception: from run() itself
// ("in-run") or from a worker's body ("in-worker", on a worker thread or a simulated CPU's
// fiber). The run must fail and be stored as failed, not reach std::terminate.
#include "engine/plugin/plugin_api.hpp"

namespace {

using namespace hitmap::engine;

class ThrowingWorkload : public Workload {
public:
    ThrowingWorkload() {
        info_.name = "throws-anything";
        info_.seed = "plugin";
        info_.description = "test plugin: throws an int from run() or from a worker";
        info_.variants = {{"in-run", "run() throws 7"}, {"in-worker", "a worker throws 7"}};
        info_.probed = false;
    }
    const WorkloadInfo& info() const override { return info_; }

    WorkloadResult run(const WorkloadRunConfig& config, const ThreadHooks& hooks) const override {
        if (config.variant == "in-run")
            throw 7;
        WorkloadResult result;
        run_workers(config, hooks, result,
                    [](unsigned slot, const std::atomic<bool>&, TraceBuffer*) -> std::uint64_t {
                        if (slot == 0)
                            throw 7;
                        return 1;
                    });
        return result;
    }

private:
    WorkloadInfo info_;
};

const ThrowingWorkload g_workload;

void register_throwing(PluginRegistrar& registrar) {
    registrar.workload(g_workload);
}

} // namespace

HITMAP_PLUGIN(register_throwing)
