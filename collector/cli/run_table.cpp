#include "collector/cli/run_table.hpp"

#include "collector/report/output_text.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <nlohmann/json.hpp>

namespace hitmap::cli {

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace

void print_run_table(const std::vector<collector::RunSummary>& runs, bool json) {
    // Keep the order in which combinations were planned.
    std::vector<std::pair<std::string, unsigned>> order;
    std::map<std::pair<std::string, unsigned>, std::vector<const collector::RunSummary*>> groups;
    for (const auto& r : runs) {
        const auto key = std::make_pair(r.plan.variant, r.plan.threads);
        if (!groups.count(key))
            order.push_back(key);
        groups[key].push_back(&r);
    }
    nlohmann::json out = nlohmann::json::array();
    if (!json)
        fmt::print("{:<14} {:>7} {:>5} {:>14} {:>14} {:>14}  {}\n", "variant", "threads", "runs",
                   "ops/s median", "min", "max", "run ids");
    for (const auto& key : order) {
        std::vector<double> rates;
        std::vector<std::int64_t> ids;
        std::vector<std::string> errors;
        for (const auto* r : groups[key]) {
            ids.push_back(r->run_id);
            if (r->ok)
                rates.push_back(r->ops_per_s);
            else
                errors.push_back(r->error);
        }
        if (json) {
            nlohmann::json row{{"variant", key.first},
                               {"threads", key.second},
                               {"run_ids", ids},
                               {"failed", errors}};
            if (!rates.empty()) {
                row["ops_per_s_median"] = median(rates);
                row["ops_per_s_min"] = *std::min_element(rates.begin(), rates.end());
                row["ops_per_s_max"] = *std::max_element(rates.begin(), rates.end());
            }
            out.push_back(row);
            continue;
        }
        const std::string id_list = fmt::format("{}", fmt::join(ids, ","));
        if (rates.empty()) {
            fmt::print("{:<14} {:>7} {:>5} {:>14} {:>14} {:>14}  {}  FAILED: {}\n", key.first,
                       key.second, ids.size(), "-", "-", "-", id_list, errors.front());
            continue;
        }
        fmt::print("{:<14} {:>7} {:>5} {:>14} {:>14} {:>14}  {}{}\n", key.first, key.second,
                   rates.size(), report::rate_text(median(rates)),
                   report::rate_text(*std::min_element(rates.begin(), rates.end())),
                   report::rate_text(*std::max_element(rates.begin(), rates.end())), id_list,
                   errors.empty() ? "" : fmt::format("  ({} failed)", errors.size()));
    }
    if (json)
        fmt::print("{}\n", report::json_text(out));
}

} // namespace hitmap::cli
