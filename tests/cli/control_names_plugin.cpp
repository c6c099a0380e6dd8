// A plugin whose workload names, descriptions and parameters carry an ESC sequence and the
// right-to-left override U+202E: text from outside that `list` must print escaped. It
// registers a workload only; running it is refused.
#include "engine/plugin/plugin_api.hpp"

namespace {

using namespace hitmap::engine;

class ControlNamesWorkload : public Workload {
public:
    ControlNamesWorkload() {
        info_.name = "evil\x1b[2J-\u202Eexe.txt";
        info_.seed = "plugin";
        info_.description = "clears the screen\x1b[2J and reverses \u202Ethe rest";
        info_.variants = {{"v\x1b]0;title\x07", "sets the terminal's title"}};
        info_.params = {{"n\u2066", 1u, "an isolate \u2066 in a name"}};
    }
    const WorkloadInfo& info() const override { return info_; }
    WorkloadResult run(const WorkloadRunConfig&, const ThreadHooks&) const override {
        throw WorkloadError("not runnable");
    }

private:
    WorkloadInfo info_;
};

void register_control_names(PluginRegistrar& registrar) {
    static const ControlNamesWorkload workload;
    registrar.workload(workload);
}

} // namespace

HITMAP_PLUGIN(register_control_names)
