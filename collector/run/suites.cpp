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
std::vector<RunRequest> every_workload(std::chrono::nanoseconds duration) {
    std::vector<RunRequest> requests;
    for (const engine::Workload* w : engine::all_workloads()) {
        RunRequest r = all_variants(w->info().name, duration);
        r.threads = {one_and_all_cpus().back()};
        requests.push_back(std::move(r));
    }
    return requests;
}

// Throughput and cacheline data in separate runs: tracing slows a run by about 3x, so ops/s
// come from untraced repetitions (measured) and c2c from one traced run per combination.
std::vector<RunRequest> measured_and_traced(std::chrono::nanoseconds duration, unsigned repeat) {
    std::vector<RunRequest> requests;
    for (const engine::Workload* w : engine::all_workloads()) {
        RunRequest measured = all_variants(w->info().name, duration);
        measured.c2c.source = C2cSource::off;
        measured.repeat = repeat;
        requests.push_back(measured);
        if (w->info().probed) {
            RunRequest traced = all_variants(w->info().name, duration);
            traced.c2c.source = C2cSource::automatic;
            requests.push_back(std::move(traced));
        }
    }
    return requests;
}

} // namespace

std::vector<Suite> builtin_suites() {
    using namespace std::chrono_literals;
    return {
        {"default",
         "every variant of every workload at 1 thread and all CPUs, 1 s each: 3 untraced "
         "repetitions for ops/s, then one traced run with c2c where the workload is probed",
         measured_and_traced(1s, 3)},
        {"quick", "every variant of every workload at all CPUs, 200 ms each (smoke test)",
         every_workload(200ms)},
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
