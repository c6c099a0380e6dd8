#include "collector/cli/run_table.hpp"

#include "collector/report/output_text.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace hitmap::cli {

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace

namespace {

struct Group {
    std::string variant;
    unsigned threads = 0;
    std::vector<double> rates; // of the runs that finished
    std::vector<std::int64_t> ids;
    std::vector<std::string> errors;
};

// The runs by (variant, threads), in the order in which the combinations were planned.
std::vector<Group> groups_of(const std::vector<collector::RunSummary>& runs) {
    std::vector<Group> groups;
    for (const auto& r : runs) {
        auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
            return g.variant == r.plan.variant && g.threads == r.plan.threads;
        });
        if (it == groups.end())
            it = groups.insert(groups.end(), Group{r.plan.variant, r.plan.threads, {}, {}, {}});
        it->ids.push_back(r.run_id);
        if (r.ok)
            it->rates.push_back(r.ops_per_s);
        else
            it->errors.push_back(r.error);
    }
    return groups;
}

} // namespace

nlohmann::json run_table_json(const std::vector<collector::RunSummary>& runs) {
    nlohmann::json out = nlohmann::json::array();
    for (const Group& g : groups_of(runs)) {
        nlohmann::json row{{"variant", g.variant},
                           {"threads", g.threads},
                           {"run_ids", g.ids},
                           {"failed", g.errors}};
        if (!g.rates.empty()) {
            row["ops_per_s_median"] = median(g.rates);
            row["ops_per_s_min"] = *std::min_element(g.rates.begin(), g.rates.end());
            row["ops_per_s_max"] = *std::max_element(g.rates.begin(), g.rates.end());
        }
        out.push_back(row);
    }
    return out;
}

void print_run_table(const std::vector<collector::RunSummary>& runs, bool json) {
    if (json) {
        fmt::print("{}\n", report::json_text(run_table_json(runs)));
        return;
    }
    fmt::print("{:<14} {:>7} {:>5} {:>14} {:>14} {:>14}  {}\n", "variant", "threads", "runs",
               "ops/s median", "min", "max", "run ids");
    for (const Group& g : groups_of(runs)) {
        const std::string id_list = fmt::format("{}", fmt::join(g.ids, ","));
        if (g.rates.empty()) {
            fmt::print("{:<14} {:>7} {:>5} {:>14} {:>14} {:>14}  {}  FAILED: {}\n", g.variant,
                       g.threads, g.ids.size(), "-", "-", "-", id_list, g.errors.front());
            continue;
        }
        fmt::print("{:<14} {:>7} {:>5} {:>14} {:>14} {:>14}  {}{}\n", g.variant, g.threads,
                   g.rates.size(), report::rate_text(median(g.rates)),
                   report::rate_text(*std::min_element(g.rates.begin(), g.rates.end())),
                   report::rate_text(*std::max_element(g.rates.begin(), g.rates.end())), id_list,
                   g.errors.empty() ? "" : fmt::format("  ({} failed)", g.errors.size()));
    }
}

} // namespace hitmap::cli
