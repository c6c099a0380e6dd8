#include "collector/run/suites.hpp"

#include "engine/runtime/worker_pool.hpp"
#include "engine/workloads/workload.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace hitmap::collector {

namespace {

std::vector<unsigned> one_and_all_cpus() {
    const auto cpus = static_cast<unsigned>(engine::allowed_cpus().size());
    return cpus > 1 ? std::vector<unsigned>{1, cpus} : std::vector<unsigned>{1};
}

RunRequest all_variants(const std::string& workload, std::chrono::nanoseconds duration) {
    RunRequest r;
    r.workload = workload;
    for (const auto& v : engine::find_workload(workload).info().variants)
        r.variants.push_back(v.name);
    r.threads = one_and_all_cpus();
    r.stop.duration = duration;
    return r;
}

// One request per registered workload, so a new workload joins the suites by registering.
std::vector<RunRequest> every_workload(std::chrono::nanoseconds duration, bool all_cpus_only) {
    std::vector<RunRequest> requests;
    for (const engine::Workload* w : engine::all_workloads()) {
        RunRequest r = all_variants(w->info().name, duration);
        if (all_cpus_only)
            r.threads = {one_and_all_cpus().back()};
        requests.push_back(std::move(r));
    }
    return requests;
}

} // namespace

std::vector<Suite> builtin_suites() {
    using namespace std::chrono_literals;
    return {
        {"default",
         "every variant of every workload at 1 thread and all CPUs, 1 s each, software c2c",
         every_workload(1s, false)},
        {"quick", "every variant of every workload at all CPUs, 200 ms each (smoke test)",
         every_workload(200ms, true)},
    };
}

const Suite& find_suite(const std::vector<Suite>& suites, const std::string& name) {
    const auto it =
        std::find_if(suites.begin(), suites.end(), [&](const Suite& s) { return s.name == name; });
    if (it != suites.end())
        return *it;
    std::string names;
    for (const auto& s : suites)
        names += (names.empty() ? "" : ", ") + s.name;
    throw std::invalid_argument(fmt::format("unknown suite '{}' (suites: {})", name, names));
}

} // namespace hitmap::collector
