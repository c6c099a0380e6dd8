#include "collector/analysis/layout_catalog.hpp"

#include "engine/layout/layout_error.hpp"
#include "engine/layout/mem_cgroup_layout.hpp"

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

bool records_layout(const engine::Layout& recorded, const engine::Layout& layout) {
    if (recorded.type == layout.type)
        return same_layout(recorded, layout);
    const auto shape = engine::shape_of(recorded);
    if (layout.type != &engine::page_counter_type() || !shape)
        return false;
    engine::Layout composed;
    try {
        composed = engine::compose_mem_cgroup(*shape, layout);
    } catch (const engine::LayoutError&) {
        return false;
    }
    // Only the counters: the rest of the struct is the shape's, as the run's build had it.
    for (unsigned c = 0; c < engine::kCounters; ++c)
        for (engine::FieldId f = 0; f < engine::pc::kCount; ++f) {
            const engine::FieldId m =
                engine::counter_field(engine::Counter(c), engine::pc::Field(f));
            if (composed.has(m) != recorded.has(m) ||
                (composed.has(m) && (composed.at(m).offset != recorded.at(m).offset ||
                                     composed.at(m).size != recorded.at(m).size)))
                return false;
        }
    return true;
}

std::optional<StructHeat> struct_heat(const store::RunRecord& run, const store::C2cData& data,
                                      const engine::StructType& type) {
    StructHeat heat{run, &type, nullptr, {}, 0, 0, data.traced_ops(), data.trace.known, {}};
    heat.fields.resize(type.fields.size());
    const auto own = [&](const engine::ObjectInfo& o) { return o.layout.type == &type; };
    const bool embedded = std::none_of(data.objects.begin(), data.objects.end(), own) &&
                          &type == &engine::page_counter_type();
    if (embedded)
        heat.container = &engine::mem_cgroup_type();
    // The field of `type` an object's field `f` is, if any.
    const auto field_of = [&](engine::FieldId f) -> std::optional<engine::FieldId> {
        if (!embedded)
            return f < heat.fields.size() ? std::optional(f) : std::nullopt;
        const auto member = engine::counter_member(f);
        return member ? std::optional<engine::FieldId>(member->field) : std::nullopt;
    };
    std::vector<engine::ObjectId> objects;
    for (const engine::ObjectInfo& o : data.objects) {
        if (o.layout.type != (embedded ? heat.container : &type))
            continue;
        objects.push_back(o.id);
        add_distinct(heat.recorded, o.layout);
        if (!embedded)
            ++heat.instances;
        else
            for (unsigned c = 0; c < engine::kCounters; ++c)
                heat.instances +=
                    o.layout.has(engine::counter_field(engine::Counter(c), engine::pc::usage));
        if (!sampled(data.trace))
            for (engine::FieldId f = 0; f < o.layout.placement.size(); ++f)
                if (const auto mine = field_of(f); mine && o.layout.has(f) && !heat.fields[*mine])
                    heat.fields[*mine] = c2c::ClassCounts{};
    }
    if (objects.empty())
        return std::nullopt;
    heat.objects = objects.size();
    for (const c2c::FieldStats& fs : data.result.fields)
        if (const auto mine = field_of(fs.field);
            mine && std::find(objects.begin(), objects.end(), fs.line.object) != objects.end()) {
            auto& counts = heat.fields[*mine];
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
        // A memcg run's page_counters, inside its mem_cgroups.
        if (std::find(types.begin(), types.end(), &engine::mem_cgroup_type()) != types.end() &&
            std::find(types.begin(), types.end(), &engine::page_counter_type()) == types.end())
            types.push_back(&engine::page_counter_type());
        for (const engine::StructType* type : types)
            catalog.heats.push_back(*struct_heat(run, *data, *type));
    }
    return catalog;
}

} // namespace hitmap::analysis
