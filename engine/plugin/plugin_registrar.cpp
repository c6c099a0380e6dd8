#include "engine/layout/layout_registry.hpp"
#include "engine/plugin/plugin_api.hpp"

#include <deque>
#include <fmt/format.h>

namespace hitmap::engine {

namespace {

// A plugin's workload behind the ABI boundary: what its validate() or run() throws that is not a
// std::exception (`throw 7;`) becomes a WorkloadError naming it, so the run fails and is stored
// as failed instead of reaching std::terminate.
class GuardedWorkload final : public Workload {
public:
    explicit GuardedWorkload(const Workload& plugin)
        : plugin_(plugin) {}

    const WorkloadInfo& info() const override { return plugin_.info(); }
    void validate(const WorkloadRunConfig& config) const override {
        guarded([&] { plugin_.validate(config); });
    }
    WorkloadResult run(const WorkloadRunConfig& config, const ThreadHooks& hooks) const override {
        return guarded([&] { return plugin_.run(config, hooks); });
    }

private:
    template <typename Call> auto guarded(Call&& call) const -> decltype(call()) {
        try {
            return call();
        } catch (const std::exception&) {
            throw;
        } catch (...) {
            throw WorkloadError(fmt::format("workload {} (from a plugin) threw something that is "
                                            "not a std::exception",
                                            plugin_.info().name));
        }
    }

    const Workload& plugin_;
};

} // namespace

void PluginRegistrar::workload(const Workload& w) {
    // Registered workloads live as long as the process; so do their guards.
    static std::deque<GuardedWorkload> guards;
    add_workload(guards.emplace_back(w));
    added_.push_back(fmt::format("workload {}", w.info().name));
}

const StructType& PluginRegistrar::struct_type(StructType type,
                                               std::vector<std::uint32_t> field_sizes) {
    const StructType& stored = add_struct_type(std::move(type), std::move(field_sizes));
    added_.push_back(fmt::format("struct {}", stored.name));
    return stored;
}

void PluginRegistrar::composition(Composition c) {
    const Composition& stored = add_composition(std::move(c));
    added_.push_back(
        fmt::format("composition {} of {}", stored.container->name, stored.member->name));
}

void PluginRegistrar::layout(Layout layout) {
    const std::string line =
        fmt::format("layout {} {}", layout.type ? layout.type->name : "?", layout.version);
    add_layout(std::move(layout));
    added_.push_back(line);
}

Site PluginRegistrar::site(std::string_view name) {
    const Site s = add_plugin_site(name);
    added_.push_back(fmt::format("site {}", name));
    return s;
}

} // namespace hitmap::engine
