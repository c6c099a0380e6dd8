#include "collector/analysis/comparison.hpp"

#include "collector/analysis/cacheline_row.hpp"
#include "collector/analysis/field_names.hpp"
#include "collector/analysis/rate.hpp"
#include "collector/analysis/story.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace hitmap::analysis {

const engine::ObjectInfo* hottest_object(const store::C2cData& data) {
    const auto ranked = analysis::ranked_lines(data.result, true);
    const engine::ObjectId id = ranked.empty() ? 0 : ranked.front()->line.object;
    for (const auto& o : data.objects)
        if (o.id == id)
            return &o;
    return data.objects.empty() ? nullptr : &data.objects.front();
}

const engine::ObjectInfo* object_named(const store::C2cData& data, std::string_view name) {
    for (const auto& o : data.objects)
        if (o.name == name)
            return &o;
    return nullptr;
}

std::map<std::string, double> field_hitm_rates(const store::C2cData& data,
                                               engine::ObjectId object) {
    std::map<std::string, std::uint64_t> hitm;
    for (const auto& f : data.result.fields)
        if (f.line.object == object)
            hitm[f.field_name] += f.counts.hitm();
    std::map<std::string, double> rates;
    const auto basis = analysis::rate_basis(data);
    for (const auto& [name, v] : hitm)
        if (const auto rate = analysis::rate(v, basis))
            rates[name] = *rate;
    return rates;
}

std::vector<FieldPair> field_pairs(const store::C2cData& before, const store::C2cData& after,
                                   const std::string& object, std::size_t limit) {
    // A capture's shares and a run's rates per operation are not one unit.
    const auto b_basis = analysis::rate_basis(before), a_basis = analysis::rate_basis(after);
    if (b_basis && a_basis && b_basis->kind != a_basis->kind)
        return {};
    const auto rates = [&](const store::C2cData& side) {
        const engine::ObjectInfo* o = object_named(side, object);
        return o ? field_hitm_rates(side, o->id) : std::map<std::string, double>{};
    };
    const auto b = rates(before), a = rates(after);
    std::map<std::string, FieldPair> pairs;
    for (const auto& [name, v] : b)
        if (v > 0)
            pairs[name] = {name, {}, v, 0};
    for (const auto& [name, v] : a)
        if (v > 0 || pairs.contains(name)) {
            auto& p = pairs[name];
            p.field = name;
            p.after = v;
        }
    std::vector<FieldPair> out;
    for (auto& [name, p] : pairs)
        out.push_back(std::move(p));
    std::stable_sort(out.begin(), out.end(), [](const FieldPair& x, const FieldPair& y) {
        return std::max(x.before, x.after) > std::max(y.before, y.after);
    });
    if (out.size() > limit)
        out.resize(limit);
    // Labelled as the strips label them: unambiguous among all the object's fields.
    std::vector<std::string_view> paths;
    for (const store::C2cData* side : {&before, &after})
        if (const engine::ObjectInfo* o = object_named(*side, object))
            for (engine::FieldId f = 0; f < o->layout.placement.size(); ++f)
                if (o->layout.has(f) &&
                    std::find(paths.begin(), paths.end(), o->layout.field_name(f)) == paths.end())
                    paths.push_back(o->layout.field_name(f));
    for (const FieldPair& p : out)
        if (std::find(paths.begin(), paths.end(), p.field) == paths.end())
            paths.push_back(p.field);
    const std::vector<std::string> labels = short_field_names(paths);
    for (FieldPair& p : out)
        p.label = labels[std::find(paths.begin(), paths.end(), p.field) - paths.begin()];
    return out;
}

std::optional<double> relative_change(std::optional<double> before, std::optional<double> after) {
    if (!before || !after || *before <= 0)
        return std::nullopt;
    return *after / *before - 1;
}

std::optional<std::int64_t> default_partner(const std::vector<store::RunRecord>& runs,
                                            std::int64_t run) {
    const auto self = std::find_if(runs.begin(), runs.end(), [&](auto& r) { return r.id == run; });
    if (self == runs.end())
        return std::nullopt;
    const auto layouts = [](const store::RunRecord& r) {
        const nlohmann::json params = nlohmann::json::parse(r.params_json);
        nlohmann::json kept = nlohmann::json::object();
        for (const auto& item : params.items())
            if (item.key().starts_with("layout."))
                kept[item.key()] = item.value();
        return kept;
    };
    const engine::Story* story = story_of(self->workload);
    const std::string* story_partner = !story                           ? nullptr
                                       : self->variant == story->before ? &story->after
                                       : self->variant == story->after  ? &story->before
                                                                        : nullptr;
    std::optional<std::int64_t> in_story, other_layout, other_variant;
    for (const auto& r : runs) {
        if (r.workload != self->workload || r.threads != self->threads ||
            r.variant == self->variant || r.source != self->source ||
            r.c2c_source != self->c2c_source || r.c2c_source == store::C2cSource::predicted ||
            r.status != store::RunStatus::complete)
            continue;
        if (story_partner && r.variant == *story_partner)
            in_story = std::max(in_story.value_or(r.id), r.id);
        if (!other_layout && layouts(r) != layouts(*self))
            other_layout = r.id;
        if (!other_variant)
            other_variant = r.id;
    }
    return in_story ? in_story : other_layout ? other_layout : other_variant;
}

} // namespace hitmap::analysis
