#pragma once
// What `predict --optimize` prints: the proposals beside the current layout and the struct's
// other versions, per field of the struct (transfers per 1,000 operations, summed over its
// copies), with the limit fields, the lines holding the charged usage, every transfer of the
// run, size and lines; and the same as JSON.
#include "collector/layoutopt/optimizer.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace hitmap::layoutopt {

struct OptimizeContext {
    std::string run_title;                    // report::run_title of the source run
    std::string evaluated_by;                 // "replays of its trace", "simulations on xeon-2s-72"
    double seconds = 0;                       // the optimization's wall time
    const store::C2cData* recorded = nullptr; // the source run as stored
    // A run of the winning layout (same workload, threads and parameters), to set beside it.
    std::optional<std::int64_t> measured_run;
    const store::C2cData* measured = nullptr;
};

std::string format_optimization(const OptimizeResult& result, const OptimizeContext& context);
nlohmann::json optimization_json(const OptimizeResult& result, const OptimizeContext& context);

} // namespace hitmap::layoutopt
