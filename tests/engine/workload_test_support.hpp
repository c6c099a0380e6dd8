#pragma once
// What every workload test builds: a config by variant, threads and iterations, and the
// message validate() refuses it with.
#include "engine/workloads/workload.hpp"

#include <string>

namespace hitmap::engine::workload_test {

inline WorkloadRunConfig config_for(std::string variant, unsigned threads,
                                    std::uint64_t iterations) {
    WorkloadRunConfig c;
    c.variant = std::move(variant);
    c.threads = threads;
    c.stop.iterations = iterations;
    return c;
}

// Empty when the config is valid.
inline std::string validate_error(const Workload& workload, const WorkloadRunConfig& c) {
    try {
        workload.validate(c);
    } catch (const WorkloadError& e) {
        return e.what();
    }
    return "";
}

} // namespace hitmap::engine::workload_test
