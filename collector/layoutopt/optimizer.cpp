#include "collector/layoutopt/optimizer.hpp"

#include "collector/layoutopt/errors.hpp"
#include "collector/layoutopt/line_layout.hpp"
#include "engine/layout/composition.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace hitmap::layoutopt {

std::optional<double> EvaluatedLayout::transfers_per_1k() const {
    if (data.trace.traced_ops == 0)
        return std::nullopt;
    return 1000.0 * static_cast<double>(transfers()) / static_cast<double>(data.trace.traced_ops);
}

namespace {

EvaluatedLayout evaluated(engine::Layout layout, store::C2cData data, const StructCopies& copies) {
    std::vector<std::uint64_t> fields = transfers_by_field(data, copies);
    const std::uint64_t lines = struct_line_transfers(data, copies);
    return {std::move(layout), std::move(data), std::nullopt, std::move(fields), lines};
}

// Fewer transfers per operation first (the same operations in a replay; a re-simulation may
// run a few more or fewer), then the smaller struct, then the model's order.
bool ranks_before(const EvaluatedLayout& a, const EvaluatedLayout& b) {
    const auto ra = a.transfers_per_1k(), rb = b.transfers_per_1k();
    const double ta = ra ? *ra : static_cast<double>(a.transfers());
    const double tb = rb ? *rb : static_cast<double>(b.transfers());
    if (ta != tb)
        return ta < tb;
    if (a.layout.size != b.layout.size)
        return a.layout.size < b.layout.size;
    return a.model_transfers.value_or(0) < b.model_transfers.value_or(0);
}

// The keep-order fields as item numbers (positions in `items`).
std::vector<std::size_t> keep_items(const OptimizeRequest& request, const engine::Layout& current,
                                    const std::vector<engine::FieldId>& items) {
    std::vector<std::size_t> out;
    for (const std::string& name : request.keep_order) {
        const auto id = request.type->field_id(name);
        if (!id)
            throw OptimizeError(fmt::format("struct {} has no field '{}' to keep in order",
                                            request.type->name, name));
        const auto it = std::find(items.begin(), items.end(), *id);
        if (it == items.end())
            throw OptimizeError(fmt::format("field '{}' is not in the run's layout {} of struct {}",
                                            name, current.version, request.type->name));
        out.push_back(static_cast<std::size_t>(it - items.begin()));
    }
    return out;
}

} // namespace

OptimizeResult optimize(const OptimizeRequest& request, const store::C2cData& recorded,
                        const Evaluate& evaluate, const Progress& progress) {
    if (!request.type)
        throw OptimizeError("no struct to optimize");
    const std::uint32_t max_lines = request.max_size / kLineSize;
    if (max_lines == 0)
        throw OptimizeError(fmt::format("--max-size {} is less than one {}-byte line",
                                        request.max_size, kLineSize));
    if (const engine::Composition* c = engine::composition_of(*request.type))
        throw OptimizeError(fmt::format("struct {} is composed around members the model does not "
                                        "probe (docs/LAYOUTS.md): optimize the {}s it embeds "
                                        "(--optimize {})",
                                        c->container->name, c->member->name, c->member->name));
    const StructCopies copies(*request.type, recorded.objects);
    const engine::Layout& current = copies.current();
    const engine::StructType& type = *request.type;

    // Items in the current layout's offset order: the order they keep within a line.
    std::vector<engine::FieldId> items;
    for (engine::FieldId f = 0; f < current.placement.size(); ++f)
        if (current.has(f))
            items.push_back(f);
    std::stable_sort(items.begin(), items.end(), [&](engine::FieldId a, engine::FieldId b) {
        return current.at(a).offset < current.at(b).offset;
    });
    const std::vector<std::size_t> keep = keep_items(request, current, items);

    OptimizeResult out;
    out.copies = copies.count();
    out.fields = items;
    out.max_lines = max_lines;
    std::size_t total =
        1 + affinity_evaluations(items.size()) + request.candidates + request.references.size();
    const auto step = [&](const std::string& what) {
        if (progress)
            progress(out.evaluations, total, what);
        ++out.evaluations;
    };

    step(fmt::format("{} (current)", current.version));
    out.current = evaluated(current, evaluate({}), copies);
    const std::vector<engine::FieldId> accessed = accessed_fields(out.current.data, copies);
    if (accessed.empty())
        throw OptimizeError(fmt::format("the run never accesses a field of struct {}: nothing "
                                        "to optimize",
                                        type.name));
    std::vector<engine::FieldId> others;
    for (const engine::FieldId f : items)
        if (std::find(accessed.begin(), accessed.end(), f) == accessed.end())
            others.push_back(f);
    std::vector<const engine::Layout*> references;
    for (const engine::Layout& reference : request.references)
        if (reference.type == &type && reference.version != current.version &&
            std::all_of(accessed.begin(), accessed.end(),
                        [&](engine::FieldId f) { return reference.has(f); }))
            references.push_back(&reference);
    total = 1 + affinity_evaluations(accessed.size()) + request.candidates + references.size();

    out.affinity =
        measure_affinity(copies, accessed, others, evaluate, progress, out.evaluations, total);
    out.evaluations += out.affinity.evaluations;

    PartitionProblem problem;
    const std::size_t n = items.size();
    problem.costs.self.assign(n, 0);
    problem.costs.pair.assign(n, std::vector<double>(n, 0));
    std::vector<std::optional<std::size_t>> measured(type.fields.size());
    for (std::size_t i = 0; i < out.affinity.fields.size(); ++i)
        measured[out.affinity.fields[i]] = i;
    for (std::size_t a = 0; a < n; ++a) {
        problem.sizes.push_back(current.at(items[a]).size);
        problem.hot.push_back(measured[items[a]].has_value());
        if (!measured[items[a]])
            continue;
        problem.costs.self[a] = out.affinity.costs.self[*measured[items[a]]];
        for (std::size_t b = 0; b < n; ++b)
            if (measured[items[b]])
                problem.costs.pair[a][b] =
                    out.affinity.costs.pair[*measured[items[a]]][*measured[items[b]]];
    }
    problem.keep_order = keep;
    problem.max_lines = max_lines;
    problem.line_size = kLineSize;
    problem.keep = std::max<std::size_t>(request.candidates, 1);
    const PartitionSearch search = search_partitions(problem);
    out.search_nodes = search.nodes;
    out.exhaustive = search.exhaustive;
    total = out.evaluations + search.best.size() + references.size();

    for (const Partition& p : search.best) {
        std::vector<std::vector<engine::FieldId>> lines;
        for (const auto& line : p.lines) {
            lines.emplace_back();
            for (const std::size_t item : line)
                lines.back().push_back(items[item]);
        }
        engine::Layout layout = layout_from_lines(type, lines, "proposal");
        layout.version = placement_version(layout);
        step(layout.version);
        EvaluatedLayout e = evaluated(layout, evaluate({{type.name, layout}}), copies);
        e.model_transfers = p.cost;
        out.proposals.push_back(std::move(e));
    }
    std::stable_sort(out.proposals.begin(), out.proposals.end(), ranks_before);

    for (const engine::Layout* reference : references) {
        step(reference->version);
        out.references.push_back(
            evaluated(*reference, evaluate({{type.name, *reference}}), copies));
    }
    return out;
}

} // namespace hitmap::layoutopt
