#include "collector/run/suites.hpp"

#include "collector/run/simulated_run.hpp"
#include "engine/runtime/worker_pool.hpp"
#include "engine/workloads/workload.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace hitmap::collector {

namespace {

// The fewest threads the workload runs with, and all CPUs (rounded down to pairs where it runs
// in pairs), without repeats: {1, 2} here, {2} for a workload of sender/receiver pairs.
std::vector<unsigned> fewest_and_all_cpus(const engine::WorkloadInfo& info) {
    const unsigned fewest = std::max(1u, info.min_threads);
    auto cpus = std::max(fewest, static_cast<unsigned>(engine::allowed_cpus().size()));
    if (info.even_threads)
        cpus -= cpus % 2;
    return cpus > fewest ? std::vector<unsigned>{fewest, cpus} : std::vector<unsigned>{fewest};
}

RunRequest all_variants(const std::string& workload, std::chrono::nanoseconds duration) {
    RunRequest r;
    r.workload = workload;
    const engine::WorkloadInfo& info = engine::find_workload(workload).info();
    for (const auto& v : info.variants)
        r.variants.push_back(v.name);
    r.threads = fewest_and_all_cpus(info);
    r.stop.duration = duration;
    return r;
}

// One request per registered workload, so a new workload joins the suites by registering.
std::vector<RunRequest> every_workload(std::chrono::nanoseconds duration) {
    std::vector<RunRequest> requests;
    for (const engine::Workload* w : engine::all_workloads()) {
        RunRequest r = all_variants(w->info().name, duration);
        r.threads = {fewest_and_all_cpus(w->info()).back()};
        requests.push_back(std::move(r));
    }
    return requests;
}

bool in_story(const engine::WorkloadInfo& info, const std::string& variant) {
    return info.story && (variant == info.story->before || variant == info.story->after);
}

// Throughput and cacheline data in separate runs: tracing slows a run by about 3x, so ops/s
// come from untraced repetitions (measured) and c2c from one traced run per combination.
std::vector<RunRequest> measured_and_traced(std::chrono::nanoseconds duration, unsigned repeat) {
    std::vector<RunRequest> requests;
    for (const engine::Workload* w : engine::all_workloads()) {
        RunRequest measured = all_variants(w->info().name, duration);
        measured.c2c.source = C2cMode::off;
        measured.repeat = repeat;
        requests.push_back(measured);
        if (w->info().probed) {
            RunRequest traced = all_variants(w->info().name, duration);
            traced.c2c.source = C2cMode::automatic;
            // The story's traces stay beside the database, for the Compare view's prediction
            // of its pair; the other runs keep their cacheline tables and drop the trace (about
            // 20 MB each: 729 MB for the suite when every trace stayed).
            RunRequest story = traced;
            story.variants.clear();
            traced.variants.clear();
            traced.c2c.keep_trace = false;
            for (const auto& v : w->info().variants)
                (in_story(w->info(), v.name) ? story : traced).variants.push_back(v.name);
            for (RunRequest* r : {&story, &traced})
                if (!r->variants.empty())
                    requests.push_back(std::move(*r));
        }
    }
    return requests;
}

// Each workload with a seed machine: its story's variants on that machine from 1 CPU to the
// seed's count, in virtual time (1 ms each: the simulation runs ~100x slower than native).
std::vector<RunRequest> simulated_sweeps(std::chrono::nanoseconds virtual_duration) {
    std::vector<RunRequest> requests;
    for (const engine::Workload* w : engine::all_workloads()) {
        const auto& seed = w->info().seed_machine;
        if (!seed)
            continue;
        RunRequest r;
        r.workload = w->info().name;
        r.variants = seed->variants;
        for (unsigned n = std::max(1u, w->info().min_threads); n < seed->cpus; n *= 2)
            r.threads.push_back(n);
        for (unsigned n : {seed->cpus * 3 / 4, seed->cpus})
            if (n > r.threads.back())
                r.threads.push_back(n);
        r.stop.duration = virtual_duration;
        r.c2c.source = C2cMode::software;
        r.simulate.emplace();
        r.simulate->machine = seed->machine;
        requests.push_back(std::move(r));
    }
    return requests;
}

// What CI gates on. Every variant of every workload simulated from the reference calibration
// (data/calibration/WORKLOAD.json), so its figures are a function of the commit alone: at the
// fewest threads, at 16 virtual CPUs and at the seed's CPU count of the seed's machine (16 CPUs
// of xeon-2s-72 for a workload without one), 200 us of virtual time each. Then short measured runs,
// 3 of each for the noise check.
std::vector<RunRequest> ci_requests() {
    using namespace std::chrono_literals;
    std::vector<RunRequest> requests;
    for (const engine::Workload* w : engine::all_workloads()) {
        const auto& info = w->info();
        RunRequest r = all_variants(info.name, 200us);
        r.threads = {fewest_and_all_cpus(info).front(), 16};
        if (info.seed_machine)
            r.threads.push_back(info.seed_machine->cpus);
        r.c2c.source = C2cMode::software;
        r.simulate.emplace();
        r.simulate->machine = info.seed_machine ? info.seed_machine->machine : "xeon-2s-72";
        r.simulate->calibration_file = reference_calibration_dir() / (info.name + ".json");
        requests.push_back(std::move(r));
    }
    for (const engine::Workload* w : engine::all_workloads()) {
        RunRequest r = all_variants(w->info().name, 100ms);
        r.threads = {fewest_and_all_cpus(w->info()).back()};
        r.c2c.source = C2cMode::off;
        r.repeat = 3;
        requests.push_back(std::move(r));
    }
    return requests;
}

template <typename... Lists> std::vector<RunRequest> joined(Lists... lists) {
    std::vector<RunRequest> all;
    (all.insert(all.end(), lists.begin(), lists.end()), ...);
    return all;
}

} // namespace

std::vector<Suite> builtin_suites() {
    using namespace std::chrono_literals;
    return {
        {"default",
         "every variant of every workload at 1 thread and all CPUs, 1 s each: 3 untraced "
         "repetitions for ops/s, then one traced run with c2c where the workload is probed "
         "(traces kept for the workload's story, before and after, only); "
         "then each seed's variants simulated on its machine from 1 CPU to its CPU count, 1 ms "
         "of virtual time each",
         joined(measured_and_traced(1s, 3), simulated_sweeps(1ms))},
        {"quick", "every variant of every workload at all CPUs, 200 ms each (smoke test)",
         every_workload(200ms)},
        {"ci",
         "for regression gates: every variant of every workload simulated from the reference "
         "calibrations in data/calibration (exact on any host) at the fewest threads, 16 CPUs "
         "and the seed's CPU count, 200 us of virtual time each; then 3 measured runs of 100 ms "
         "each at all CPUs",
         ci_requests()},
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
