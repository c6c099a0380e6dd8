#pragma once
// The runs that tell a workload's story (engine::WorkloadInfo::story), as a database holds them:
// what the app, its screenshots and `make run` open on. The story's names come from the
// workload's own metadata; nothing here names a workload, struct or field.
#include "collector/c2c/replay_result.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/records.hpp"
#include "engine/workloads/workload.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace hitmap::analysis {

struct StoryRuns {
    std::string workload;
    engine::Story story;
    // The newest complete traced run of the story's "before" variant: traced ops/s and
    // cacheline tables replayed from this machine's own trace.
    std::int64_t before = 0;
    // The newest complete run of the "after" variant with the same source, cacheline source and
    // threads; nullopt when the database holds none.
    std::optional<std::int64_t> after;
};

// The registered workload's story, or null (an unknown workload, or one without a story).
const engine::Story* story_of(std::string_view workload);

// The first registered workload with a story (with or without runs), or null.
const engine::WorkloadInfo* first_story_workload();

// The first registered workload with a story whose "before" run `runs` holds, or nullopt.
std::optional<StoryRuns> find_story(const std::vector<store::RunRecord>& runs);

// The line of `data` holding a field named `field`, the one with the most HITM where several
// objects have it; nullopt when no line with any transfer holds it.
std::optional<c2c::LineKey> line_holding(const store::C2cData& data, std::string_view field);

} // namespace hitmap::analysis
