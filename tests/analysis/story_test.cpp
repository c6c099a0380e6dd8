// The workload story the views open on, and the default compare pair: read from the workloads'
// own metadata (engine::WorkloadInfo::story) and asserted on synthetic run lists and on
// tests/data/small.db.
#include "collector/analysis/comparison.hpp"
#include "collector/analysis/run_detail.hpp"
#include "collector/analysis/story.hpp"
#include "small_db.hpp"

#include <gtest/gtest.h>

namespace hitmap::analysis {
namespace {

using test::SmallDb;

const engine::WorkloadInfo& story_workload() {
    const engine::WorkloadInfo* info = first_story_workload();
    EXPECT_NE(info, nullptr);
    return *info;
}

store::RunRecord run(std::int64_t id, const std::string& variant, store::Source source,
                     std::optional<std::string_view> c2c, int threads = 2) {
    return {.id = id,
            .workload = story_workload().name,
            .variant = variant,
            .source = source,
            .threads = threads,
            .status = store::RunStatus::complete,
            .c2c_source = c2c ? std::optional(store::parse_c2c_source(*c2c)) : std::nullopt};
}

TEST(Story, EveryStoryNamesVariantsAndAStructOfItsWorkload) {
    for (const engine::Workload* w : engine::all_workloads()) {
        const auto& info = w->info();
        if (!info.story)
            continue;
        const auto has_variant = [&](const std::string& name) {
            return std::any_of(info.variants.begin(), info.variants.end(),
                               [&](const auto& v) { return v.name == name; });
        };
        EXPECT_TRUE(has_variant(info.story->before)) << info.name;
        EXPECT_TRUE(has_variant(info.story->after)) << info.name;
        EXPECT_NE(std::find(info.layout_structs.begin(), info.layout_structs.end(),
                            info.story->layout_struct),
                  info.layout_structs.end())
            << info.name;
        EXPECT_FALSE(info.story->field.empty()) << info.name;
        EXPECT_EQ(story_of(info.name), &*info.story);
    }
    EXPECT_EQ(story_of("no-such-workload"), nullptr);
}

// The newest traced "before" run, and the newest "after" of its source, c2c source and threads;
// measured and simulated runs of the variants, and a newer "after" at other threads, are not it.
TEST(Story, TheNewestTracedBeforeRunAndItsAfter) {
    const auto& story = *story_workload().story;
    const auto traced = store::Source::traced, measured = store::Source::measured;
    std::vector<store::RunRecord> runs{
        run(1, story.before, measured, std::nullopt),
        run(2, story.after, measured, std::nullopt),
        run(3, story.before, traced, "software"),
        run(4, story.after, traced, "software"),
        run(5, story.before, traced, "software", 4),
        run(6, story.after, traced, "software", 4),
        run(7, story.after, traced, "software", 8),
        run(8, story.before, store::Source::simulated, "simulated", 72),
        run(9, story.after, measured, std::nullopt, 4),
    };
    auto found = find_story(runs);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->workload, story_workload().name);
    EXPECT_EQ(found->before, 5);
    EXPECT_EQ(found->after, 6);
    EXPECT_EQ(default_partner(runs, 5), 6);
    EXPECT_EQ(default_partner(runs, 6), 5);
    // Never a pair of two sources: the measured before run pairs with the measured after run.
    EXPECT_EQ(default_partner(runs, 1), 2);
    EXPECT_EQ(default_partner(runs, 9), std::nullopt); // no measured before run at 4 threads
    runs.erase(runs.begin() + 5);                      // run 6
    found = find_story(runs);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->before, 5);
    EXPECT_EQ(found->after, std::nullopt);
    EXPECT_EQ(default_partner(runs, 5), std::nullopt);
    EXPECT_FALSE(find_story({run(1, story.before, measured, std::nullopt)}));
}

// small.db: run 1 is the story's before (v6.0, traced), run 2 its after; the line the story is
// about is one of run 1's lines with transfers, and holds that field.
TEST(Story, TheStoryLineOfSmallDb) {
    SmallDb small;
    const auto found = find_story(small.db.runs());
    ASSERT_TRUE(found);
    EXPECT_EQ(found->before, 1);
    EXPECT_EQ(found->after, 2);
    const RunDetail detail = read_run_detail(small.db, 1);
    ASSERT_TRUE(detail.c2c);
    const auto line = line_holding(*detail.c2c, found->story.field);
    ASSERT_TRUE(line);
    bool holds = false;
    for (const auto& f : detail.c2c->result.fields)
        holds = holds || (f.line == *line && f.field_name == found->story.field);
    EXPECT_TRUE(holds);
    EXPECT_FALSE(line_holding(*detail.c2c, "no.such.field"));
}

} // namespace
} // namespace hitmap::analysis
