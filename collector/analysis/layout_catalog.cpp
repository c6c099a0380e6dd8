#include "collector/analysis/layout_catalog.hpp"

#include <algorithm>

namespace hitmap::analysis {

namespace {

// Samples (perf mem/SPE through `--c2c hardware`, or perf's own c2c report imported) count
// only the accesses that were sampled: a field without a sample may still be hot.
bool sampled(const store::TraceInfo& trace) {
    return trace.clock == "sampled" || trace.format == store::kPerfC2cReportFormat;
}

void add_distinct(std::vector<engine::Layout>& layouts, const engine::Layout& l) {
    if (std::none_of(layouts.begin(), layouts.end(),
                     [&](const engine::Layout& x) { return same_layout(x, l); }))
        layouts.push_back(l);
}

} // namespace

bool same_layout(const engine::Layout& a, const engine::Layout& b) {
    return a.type == b.type && a.size == b.size && a.align == b.align &&
           std::equal(a.placement.begin(), a.placement.end(), b.placement.begin(),
                      b.placement.end(), [](const auto& x, const auto& y) {
                          return x.has_value() == y.has_value() &&
                                 (!x || (x->offset == y->offset && x->size == y->size));
                      });
}

std::optional<StructHeat> struct_heat(const store::RunRecord& run, const store::C2cData& data,
                                      const engine::StructType& type) {
    StructHeat heat{run, &type, {}, 0, data.trace.traced_ops, {}};
    heat.fields.resize(type.fields.size());
    std::vector<engine::ObjectId> objects;
    for (const engine::ObjectInfo& o : data.objects) {
        if (o.layout.type != &type)
            continue;
        objects.push_back(o.id);
        add_distinct(heat.recorded, o.layout);
        if (!sampled(data.trace))
            for (engine::FieldId f = 0; f < heat.fields.size(); ++f)
                if (o.layout.has(f) && !heat.fields[f])
                    heat.fields[f] = c2c::ClassCounts{};
    }
    if (objects.empty())
        return std::nullopt;
    heat.objects = objects.size();
    for (const c2c::FieldStats& fs : data.result.fields)
        if (fs.field < heat.fields.size() &&
            std::find(objects.begin(), objects.end(), fs.line.object) != objects.end()) {
            auto& counts = heat.fields[fs.field];
            counts = counts.value_or(c2c::ClassCounts{});
            *counts += fs.counts;
        }
    return heat;
}

LayoutCatalog read_layout_catalog(store::Database& db) {
    LayoutCatalog catalog;
    for (const store::RunRecord& run : db.runs()) {
        const auto data = store::read_c2c(db, run.id);
        if (!data)
            continue;
        std::vector<const engine::StructType*> types;
        for (const engine::ObjectInfo& o : data->objects) {
            if (!o.layout.type)
                continue;
            auto stored = std::find_if(
                catalog.layouts.begin(), catalog.layouts.end(),
                [&](const StoredLayout& s) { return same_layout(s.layout, o.layout); });
            if (stored == catalog.layouts.end())
                stored = catalog.layouts.insert(stored, {o.layout, {}});
            if (stored->runs.empty() || stored->runs.back() != run.id)
                stored->runs.push_back(run.id);
            if (std::find(types.begin(), types.end(), o.layout.type) == types.end())
                types.push_back(o.layout.type);
        }
        for (const engine::StructType* type : types)
            catalog.heats.push_back(*struct_heat(run, *data, *type));
    }
    return catalog;
}

} // namespace hitmap::analysis
