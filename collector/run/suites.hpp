#pragma once
// Named sets of runs: what `make run` collects and what CI gates on.
#include "collector/run/run_request.hpp"

#include <string>
#include <vector>

namespace hitmap::collector {

struct Suite {
    std::string name;
    std::string description;
    std::vector<RunRequest> requests;
};

std::vector<Suite> builtin_suites();
const Suite& find_suite(const std::vector<Suite>& suites, const std::string& name); // throws

} // namespace hitmap::collector
