#pragma once
// The optimizer's search, on plain numbers: group items (a struct's fields) into lines so that
// the summed cost of the pairs that share a line is least. The model is pairwise: a field
// alone on its line costs `self`, and each pair on one line adds `pair` (positive when they
// falsely share, negative when one's transfer brings the other along). Exact branch and
// bound over set partitions, deterministic; a node budget bounds it on large structs.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hitmap::layoutopt {

struct SharingCosts {
    std::vector<double> self;              // per item
    std::vector<std::vector<double>> pair; // symmetric, pair[i][i] unused
};

struct PartitionProblem {
    // Per item, a power of two. Items are numbered in the order they take within a line (the
    // current layout's offset order), so a line packs its items in ascending number.
    std::vector<std::uint32_t> sizes;
    // Items with costs. The others (never accessed) cannot change the cost: they are placed
    // after the search, first-fit into the lines with the least `self`.
    std::vector<bool> hot;
    SharingCosts costs;
    // Items that must keep their relative order (by number) in the layout.
    std::vector<std::size_t> keep_order;
    std::uint32_t max_lines = 1;
    std::uint32_t line_size = 64;
    std::size_t keep = 5; // the cheapest partitions returned
    std::uint64_t node_budget = 50'000'000;
};

struct Partition {
    std::vector<std::vector<std::size_t>> lines; // items per line, lines in layout order
    double cost = 0;                             // model_cost of `lines`
};

struct PartitionSearch {
    std::vector<Partition> best; // cheapest first; ties: fewer lines first, then found first
    std::uint64_t nodes = 0;
    bool exhaustive = true; // false: the node budget ran out and `best` is the best found
};

// Throws OptimizeError when the items cannot fit in max_lines lines, or the problem's vectors
// disagree in size or hold more than 64 items.
PartitionSearch search_partitions(const PartitionProblem& problem);

// Sum of self over all items and of pair over every two items on one line.
double model_cost(const SharingCosts& costs, const std::vector<std::vector<std::size_t>>& lines);

} // namespace hitmap::layoutopt
