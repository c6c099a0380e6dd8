#include "collector/analysis/story.hpp"

#include "collector/analysis/cacheline_row.hpp"

#include <algorithm>

namespace hitmap::analysis {

namespace {

bool complete(const store::RunRecord& r) {
    return r.status == store::RunStatus::complete;
}

// The newest of `runs` that `keep` accepts (ids grow with time), or null.
template <class Keep>
const store::RunRecord* newest(const std::vector<store::RunRecord>& runs, Keep keep) {
    const store::RunRecord* found = nullptr;
    for (const auto& r : runs)
        if (complete(r) && keep(r) && (!found || r.id > found->id))
            found = &r;
    return found;
}

} // namespace

const engine::Story* story_of(std::string_view workload) {
    for (const engine::Workload* w : engine::all_workloads())
        if (w->info().name == workload)
            return w->info().story ? &*w->info().story : nullptr;
    return nullptr;
}

const engine::WorkloadInfo* first_story_workload() {
    for (const engine::Workload* w : engine::all_workloads())
        if (w->info().story)
            return &w->info();
    return nullptr;
}

std::optional<StoryRuns> find_story(const std::vector<store::RunRecord>& runs) {
    for (const engine::Workload* w : engine::all_workloads()) {
        const auto& info = w->info();
        if (!info.story)
            continue;
        const store::RunRecord* before = newest(runs, [&](const store::RunRecord& r) {
            return r.workload == info.name && r.variant == info.story->before &&
                   r.source == store::Source::traced && r.c2c_source.has_value();
        });
        if (!before)
            continue;
        const store::RunRecord* after = newest(runs, [&](const store::RunRecord& r) {
            return r.workload == info.name && r.variant == info.story->after &&
                   r.source == before->source && r.c2c_source == before->c2c_source &&
                   r.threads == before->threads;
        });
        return StoryRuns{info.name, *info.story, before->id,
                         after ? std::optional(after->id) : std::nullopt};
    }
    return std::nullopt;
}

std::optional<c2c::LineKey> line_holding(const store::C2cData& data, std::string_view field) {
    for (const c2c::LineStats* l : analysis::ranked_lines(data.result, true))
        if (std::any_of(data.result.fields.begin(), data.result.fields.end(),
                        [&](const c2c::FieldStats& f) {
                            return f.line == l->line && f.field_name == field;
                        }))
            return l->line;
    return std::nullopt;
}

} // namespace hitmap::analysis
