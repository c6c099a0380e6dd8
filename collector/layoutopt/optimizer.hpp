#pragma once
// `predict RUN --optimize STRUCT`: the layout of a struct that the run's accesses make cheapest.
//   1. field affinity: pairwise sharing costs from probe evaluations (field_affinity.hpp);
//   2. search: the cheapest groupings of the fields into at most max_size / 64 lines under the
//      pairwise model (partition_search.hpp), laid out line-aligned (line_layout.hpp);
//   3. verification: each proposal, the current layout and the reference layouts evaluated in
//      full, proposals ranked by what the evaluation says, not by the model.
#include "collector/layoutopt/field_affinity.hpp"
#include "collector/layoutopt/partition_search.hpp"

#include <optional>
#include <string>
#include <vector>

namespace hitmap::layoutopt {

struct OptimizeRequest {
    const engine::StructType* type = nullptr;
    std::uint32_t max_size = 0;          // bytes; proposals take at most max_size / 64 lines
    std::vector<std::string> keep_order; // fields that keep their current relative order
    std::size_t candidates = 5;          // proposals verified by a full evaluation
    // Evaluated beside them (the struct's other versions); one of the current layout's version,
    // or one that does not place every accessed field, is left out.
    std::vector<engine::Layout> references;
};

struct EvaluatedLayout {
    engine::Layout layout;
    store::C2cData data;
    std::optional<double> model_transfers;      // the pairwise model's figure (proposals only)
    std::vector<std::uint64_t> field_transfers; // by FieldId of the struct, over its copies
    std::uint64_t struct_line_transfers = 0;    // of the lines holding the struct's fields

    // Every transfer of the run, and per 1,000 of its operations (unknown without operations).
    std::uint64_t transfers() const { return data.result.totals.transfers(); }
    std::optional<double> transfers_per_1k() const;
};

struct OptimizeResult {
    std::size_t copies = 0;              // copies of the struct the costs are summed over
    std::vector<engine::FieldId> fields; // the current layout's fields
    Affinity affinity;
    std::uint64_t search_nodes = 0;
    bool exhaustive = true;
    std::uint32_t max_lines = 0;
    std::size_t evaluations = 0;
    EvaluatedLayout current;
    std::vector<EvaluatedLayout> proposals; // fewest transfers per operation first
    std::vector<EvaluatedLayout> references;
};

// `recorded`: the run as stored (its objects say where the struct lives). Throws
// OptimizeError (no copy of the struct, an unknown --keep-order-of field, a max_size below one
// line or too small for the fields) and what `evaluate` throws.
OptimizeResult optimize(const OptimizeRequest& request, const store::C2cData& recorded,
                        const Evaluate& evaluate, const Progress& progress = {});

} // namespace hitmap::layoutopt
