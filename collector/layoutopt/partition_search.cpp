#include "collector/layoutopt/partition_search.hpp"

#include "collector/layoutopt/errors.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <fmt/format.h>
#include <numeric>

namespace hitmap::layoutopt {

namespace {

using Mask = std::uint64_t;

Mask bit(std::size_t item) {
    return Mask{1} << item;
}

class Search {
public:
    explicit Search(const PartitionProblem& p)
        : p_(p)
        , n_(p.sizes.size()) {
        is_keep_.assign(n_, false);
        for (const std::size_t k : p.keep_order)
            is_keep_[k] = true;
        // Keep-order items first, in their order, so that each can only join the line of the
        // one before it or open the next line; then the hot items with the largest costs first,
        // which finds cheap partitions early and prunes the most.
        std::vector<std::size_t> sorted_keep = p.keep_order;
        std::sort(sorted_keep.begin(), sorted_keep.end());
        sorted_keep.erase(std::unique(sorted_keep.begin(), sorted_keep.end()), sorted_keep.end());
        order_ = sorted_keep;
        std::vector<std::size_t> rest;
        for (std::size_t i = 0; i < n_; ++i) {
            if (is_keep_[i])
                continue;
            (p.hot[i] ? rest : cold_).push_back(i);
        }
        std::vector<double> weight(n_, 0);
        for (const std::size_t i : rest)
            for (std::size_t j = 0; j < n_; ++j)
                if (j != i)
                    weight[i] += std::abs(p.costs.pair[i][j]);
        std::stable_sort(rest.begin(), rest.end(),
                         [&](std::size_t a, std::size_t b) { return weight[a] > weight[b]; });
        order_.insert(order_.end(), rest.begin(), rest.end());
        // bound_[d]: the most the pairs decided at depth d or later can lower the cost.
        bound_.assign(order_.size() + 1, 0);
        for (std::size_t d = order_.size(); d-- > 0;) {
            double lowest = 0;
            for (std::size_t e = 0; e < d; ++e)
                lowest += std::min(0.0, p.costs.pair[order_[d]][order_[e]]);
            bound_[d] = bound_[d + 1] + lowest;
        }
        self_total_ = std::accumulate(p.costs.self.begin(), p.costs.self.end(), 0.0);
        lines_.assign(p.max_lines, 0);
        line_of_.assign(n_, 0);
    }

    PartitionSearch run() {
        descend(0, 0);
        return std::move(out_);
    }

private:
    bool fits(Mask line) const {
        std::uint32_t at = 0;
        for (; line; line &= line - 1) {
            const std::uint32_t size = p_.sizes[std::countr_zero(line)];
            at = (at + size - 1) / size * size + size;
        }
        return at <= p_.line_size;
    }

    bool full() const { return out_.best.size() >= p_.keep; }

    void descend(std::size_t depth, double cost) {
        if (out_.nodes >= p_.node_budget) {
            out_.exhaustive = false;
            return;
        }
        ++out_.nodes;
        if (depth == order_.size()) {
            leaf(cost);
            return;
        }
        if (full() && cost + bound_[depth] >= out_.best.back().cost - self_total_)
            return;
        const std::size_t i = order_[depth];
        const auto place = [&](std::size_t line) {
            double delta = 0;
            for (Mask m = lines_[line]; m; m &= m - 1)
                delta += p_.costs.pair[i][std::countr_zero(m)];
            lines_[line] |= bit(i);
            line_of_[i] = static_cast<std::uint32_t>(line);
            descend(depth + 1, cost + delta);
            lines_[line] &= ~bit(i);
        };
        if (is_keep_[i] && depth > 0) {
            // The line of the previous keep-order item, or the next new line.
            const std::size_t line = line_of_[order_[depth - 1]];
            if (fits(lines_[line] | bit(i)))
                place(line);
        } else {
            for (std::size_t line = 0; line < used_; ++line)
                if (fits(lines_[line] | bit(i)))
                    place(line);
        }
        if (used_ < p_.max_lines) {
            ++used_;
            place(used_ - 1);
            --used_;
        }
    }

    // All hot items are placed: add the cold ones, first fit into the lines whose items cost the
    // least alone (away from what is written), opening lines while there are lines to open.
    void leaf(double cost) {
        std::vector<Mask> lines(lines_.begin(), lines_.begin() + used_);
        if (!cold_.empty()) {
            const auto heat = [&](Mask m) {
                double h = 0;
                for (; m; m &= m - 1)
                    h += p_.costs.self[std::countr_zero(m)];
                return h;
            };
            std::vector<std::size_t> by_heat(lines.size());
            std::iota(by_heat.begin(), by_heat.end(), 0);
            std::stable_sort(by_heat.begin(), by_heat.end(), [&](std::size_t a, std::size_t b) {
                return heat(lines[a]) < heat(lines[b]);
            });
            for (const std::size_t c : cold_) {
                const auto fit = std::find_if(by_heat.begin(), by_heat.end(), [&](std::size_t l) {
                    return fits(lines[l] | bit(c));
                });
                if (fit != by_heat.end()) {
                    lines[*fit] |= bit(c);
                } else if (lines.size() < p_.max_lines) {
                    lines.push_back(bit(c));
                    by_heat.insert(by_heat.begin(), lines.size() - 1); // empty: coolest
                } else {
                    return;
                }
            }
        }
        record(Partition{ordered(lines), cost + self_total_});
    }

    // Lines in layout order: a line with keep-order items at its first such item, any other at
    // its first item (it may go anywhere between them); items ascending within a line.
    std::vector<std::vector<std::size_t>> ordered(const std::vector<Mask>& masks) const {
        std::vector<std::pair<std::size_t, Mask>> keyed;
        for (const Mask m : masks) {
            Mask keep_items = 0;
            for (Mask r = m; r; r &= r - 1)
                if (is_keep_[std::countr_zero(r)])
                    keep_items |= bit(std::countr_zero(r));
            keyed.emplace_back(std::countr_zero(keep_items ? keep_items : m), m);
        }
        std::sort(keyed.begin(), keyed.end());
        std::vector<std::vector<std::size_t>> lines;
        for (const auto& [key, m] : keyed) {
            lines.emplace_back();
            for (Mask r = m; r; r &= r - 1)
                lines.back().push_back(std::countr_zero(r));
        }
        return lines;
    }

    void record(Partition candidate) {
        const auto before = [](const Partition& a, const Partition& b) {
            return a.cost < b.cost || (a.cost == b.cost && a.lines.size() < b.lines.size());
        };
        const auto at = std::upper_bound(out_.best.begin(), out_.best.end(), candidate, before);
        if (full() && at == out_.best.end())
            return;
        out_.best.insert(at, std::move(candidate));
        if (out_.best.size() > p_.keep)
            out_.best.pop_back();
    }

    const PartitionProblem& p_;
    std::size_t n_;
    std::vector<std::size_t> order_; // search order of the keep-order and hot items
    std::vector<bool> is_keep_;
    std::vector<std::size_t> cold_; // placed at the leaves
    std::vector<double> bound_;
    double self_total_ = 0;
    std::vector<Mask> lines_; // the partial partition, lines 0..used_-1
    std::vector<std::uint32_t> line_of_;
    std::size_t used_ = 0;
    PartitionSearch out_;
};

} // namespace

PartitionSearch search_partitions(const PartitionProblem& problem) {
    const std::size_t n = problem.sizes.size();
    if (n > 64)
        throw OptimizeError(fmt::format("{} fields: the search handles at most 64", n));
    if (problem.hot.size() != n || problem.costs.self.size() != n ||
        problem.costs.pair.size() != n ||
        std::any_of(problem.costs.pair.begin(), problem.costs.pair.end(),
                    [&](const auto& row) { return row.size() != n; }))
        throw OptimizeError("partition problem: sizes, hot items and costs disagree in size");
    for (const std::size_t k : problem.keep_order)
        if (k >= n)
            throw OptimizeError(fmt::format("partition problem: keep-order item {} of {}", k, n));
    if (problem.keep == 0)
        throw OptimizeError("partition problem: no partition asked for");
    PartitionSearch found = Search(problem).run();
    if (found.best.empty() && found.exhaustive) {
        const std::uint32_t bytes =
            std::accumulate(problem.sizes.begin(), problem.sizes.end(), std::uint32_t{0});
        throw OptimizeError(fmt::format("{} fields of {} bytes in all do not fit in {} lines of {} "
                                        "bytes{}",
                                        n, bytes, problem.max_lines, problem.line_size,
                                        problem.keep_order.empty() ? "" : " in the order kept"));
    }
    if (found.best.empty())
        throw OptimizeError(
            fmt::format("no layout found within {} search steps", problem.node_budget));
    return found;
}

double model_cost(const SharingCosts& costs, const std::vector<std::vector<std::size_t>>& lines) {
    double cost = std::accumulate(costs.self.begin(), costs.self.end(), 0.0);
    for (const auto& line : lines)
        for (std::size_t a = 0; a < line.size(); ++a)
            for (std::size_t b = a + 1; b < line.size(); ++b)
                cost += costs.pair[line[a]][line[b]];
    return cost;
}

} // namespace hitmap::layoutopt
