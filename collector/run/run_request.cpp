#include "collector/run/run_request.hpp"

namespace hitmap::collector {

std::vector<PlannedRun> plan_runs(const RunRequest& request) {
    std::vector<PlannedRun> plan;
    for (const std::string& variant : request.variants)
        for (unsigned threads : request.threads)
            for (unsigned rep = 0; rep < request.repeat; ++rep)
                plan.push_back({variant, threads, rep});
    return plan;
}

} // namespace hitmap::collector
