#pragma once
// The pairwise sharing costs of a struct's fields, measured by evaluating the run under probe
// layouts. One evaluation with every accessed field alone on its line gives each field's own
// cost (true sharing, which no grouping removes); then a round-robin schedule puts disjoint
// pairs of fields on lines of their own, so n-1 rounds (n accessed fields, n even; n rounds
// when odd) see every pair once. A pair's cost is its line's transfers less the two fields'
// own costs, summed over every copy of the struct: what sharing a line adds (or saves, when one
// field's transfer brings the other along).
#include "collector/layoutopt/evaluation.hpp"
#include "collector/layoutopt/partition_search.hpp"

#include <span>

namespace hitmap::layoutopt {

struct Affinity {
    std::vector<engine::FieldId> fields; // the accessed fields, ascending
    SharingCosts costs;                  // indexed like `fields`
    std::size_t evaluations = 0;
};

// The evaluations measure_affinity makes for n accessed fields.
std::size_t affinity_evaluations(std::size_t accessed);

// `accessed`: the fields to measure; `others`: the rest of the current layout's fields, parked
// together on lines of their own. Throws OptimizeError (struct_lines) and what `evaluate` throws.
Affinity measure_affinity(const StructCopies& copies, std::span<const engine::FieldId> accessed,
                          std::span<const engine::FieldId> others, const Evaluate& evaluate,
                          const Progress& progress, std::size_t done, std::size_t total);

} // namespace hitmap::layoutopt
