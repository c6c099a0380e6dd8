#include "collector/analysis/layout_catalog.hpp"

#include "engine/layout/composition.hpp"

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
           engine::same_placement(a, b);
}

bool records_layout(const engine::Layout& recorded, const engine::Layout& layout) {
    if (recorded.type == layout.type)
        return same_layout(recorded, layout);
    return engine::holds_member_layout(recorded, layout);
}

std::optional<StructHeat> struct_heat(const store::RunRecord& run, const store::C2cData& data,
                                      const engine::StructType& type) {
    StructHeat heat{run, &type, nullptr, {}, 0, 0, data.traced_ops(), data.trace.known, {}};
    heat.fields.resize(type.fields.size());
    const auto own = [&](const engine::ObjectInfo& o) { return o.layout.type == &type; };
    if (std::none_of(data.objects.begin(), data.objects.end(), own)) {
        const auto embeds = std::find_if(
            data.objects.begin(), data.objects.end(), [&](const engine::ObjectInfo& o) {
                return o.layout.type && engine::embedded_copies(*o.layout.type, type) > 0;
            });
        if (embeds != data.objects.end())
            heat.container = embeds->layout.type;
    }
    const bool embedded = heat.container != nullptr;
    // The copy of `type` and its field an object's field `f` is, if any.
    const auto member_of = [&](engine::FieldId f) -> std::optional<engine::MemberField> {
        if (!embedded)
            return f < heat.fields.size() ? std::optional(engine::MemberField{0, f}) : std::nullopt;
        return engine::embedded_field(*heat.container, type, f);
    };
    const auto field_of = [&](engine::FieldId f) -> std::optional<engine::FieldId> {
        const auto member = member_of(f);
        return member ? std::optional(member->field) : std::nullopt;
    };
    std::vector<engine::ObjectId> objects;
    for (const engine::ObjectInfo& o : data.objects) {
        if (o.layout.type != (embedded ? heat.container : &type))
            continue;
        objects.push_back(o.id);
        add_distinct(heat.recorded, o.layout);
        if (!embedded) {
            ++heat.instances;
        } else {
            // The copies the layout places any field of.
            std::vector<bool> placed(engine::embedded_copies(*heat.container, type));
            for (engine::FieldId f = 0; f < o.layout.placement.size(); ++f)
                if (const auto member = member_of(f); member && o.layout.has(f))
                    placed[member->copy] = true;
            heat.instances += std::count(placed.begin(), placed.end(), true);
        }
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
        // The structs embedded in the run's objects (a memcg run's page_counters, inside its
        // mem_cgroups), at any depth.
        for (std::size_t i = 0, own = types.size(); i < own; ++i)
            for (const engine::Composition* c = engine::composition_of(*types[i]); c;
                 c = engine::composition_of(*c->member))
                if (std::find(types.begin(), types.end(), c->member) == types.end())
                    types.push_back(c->member);
        for (const engine::StructType* type : types)
            catalog.heats.push_back(*struct_heat(run, *data, *type));
    }
    return catalog;
}

} // namespace hitmap::analysis
