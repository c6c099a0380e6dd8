// The optimizer on a stored trace: run 1 of tests/data/small.db (page-counter-charge v6.0, two
// threads, 5,000 operations each; README there), replayed under its probe layouts and
// proposals. The counts are those of the committed trace, so they do not depend on this VM.
#include "collector/c2c/replay.hpp"
#include "collector/layoutopt/optimizer.hpp"
#include "collector/store/database.hpp"
#include "collector/trace/trace_file.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "tests/cli/cli_test_support.hpp"

#include <gtest/gtest.h>

namespace hitmap::layoutopt {
namespace {

using namespace engine::pc;

const std::filesystem::path kData = HITMAP_TEST_DATA;

std::uint64_t limit_transfers(const EvaluatedLayout& e) {
    std::uint64_t sum = 0;
    for (const Field f : kLimitFields)
        sum += e.field_transfers[f];
    return sum;
}

class OptimizeStoredRun : public ::testing::Test {
protected:
    void SetUp() override {
        const auto db_path = dir_ / "small.db";
        std::filesystem::copy_file(kData / "small.db", db_path);
        std::filesystem::copy(kData / "small.db.traces", dir_ / "small.db.traces");
        store::Database db = store::Database::open(db_path);
        recorded_ = *store::read_c2c(db, 1);
        ASSERT_TRUE(recorded_.trace.path);
        trace_ = collector::read_trace_file(
            collector::resolve_trace_path(db.path(), *recorded_.trace.path),
            {recorded_.trace.bytes, recorded_.trace.file_hash, recorded_.trace.records});
        for (std::size_t t = 0; t < trace_.threads.size(); ++t)
            threads_.push_back({static_cast<std::uint32_t>(t), trace_.threads[t]});
        config_.model_cpus = recorded_.result.model_cpus;
    }

    OptimizeResult optimize_page_counter(std::uint32_t max_size) const {
        OptimizeRequest r;
        r.type = &engine::page_counter_type();
        r.max_size = max_size;
        r.references = {*engine::find_builtin_layout("page_counter", "v6.1")};
        return optimize(r, recorded_, replay_evaluation(threads_, recorded_, config_));
    }

    testing::TempDir dir_;
    store::C2cData recorded_;
    collector::StoredTrace trace_;
    std::vector<c2c::ThreadTrace> threads_;
    c2c::ReplayConfig config_;
};

TEST_F(OptimizeStoredRun, ProposalRemovesTheLimitFieldTransfersAsWellAsV6_1) {
    const OptimizeResult r = optimize_page_counter(192);
    // Four memcgs (root, top, mid, leaf), four counters each.
    EXPECT_EQ(r.copies, 16u);
    EXPECT_EQ(r.current.layout.version, "v6.0");
    // The replay of the current layout is the stored replay of the run.
    EXPECT_EQ(r.current.data.result, recorded_.result);
    ASSERT_FALSE(r.proposals.empty());
    ASSERT_EQ(r.references.size(), 1u);
    const EvaluatedLayout& best = r.proposals.front();
    const EvaluatedLayout& v6_1 = r.references.front();
    EXPECT_LE(best.layout.size, 192u);
    EXPECT_GT(limit_transfers(r.current), 0u);
    EXPECT_LE(limit_transfers(best) * 10, limit_transfers(r.current));
    EXPECT_LE(best.transfers(), v6_1.transfers());
    EXPECT_LT(best.transfers(), r.current.transfers());
    // usage, written by every charge, keeps its line to itself among what the run accesses.
    const auto line = [&](engine::FieldId f) { return best.layout.at(f).offset / 64; };
    for (const Field f : kLimitFields)
        EXPECT_NE(line(f), line(usage)) << engine::page_counter_type().fields[f];
    // Deterministic: the same proposals again.
    const OptimizeResult again = optimize_page_counter(192);
    ASSERT_EQ(again.proposals.size(), r.proposals.size());
    for (std::size_t i = 0; i < r.proposals.size(); ++i)
        EXPECT_EQ(again.proposals[i].layout.version, r.proposals[i].layout.version);
}

TEST_F(OptimizeStoredRun, TwoLinesStillSeparateUsageFromTheLimits) {
    const OptimizeResult r = optimize_page_counter(128);
    const EvaluatedLayout& best = r.proposals.front();
    EXPECT_EQ(best.layout.size, 128u);
    EXPECT_LT(limit_transfers(best), limit_transfers(r.current));
}

} // namespace
} // namespace hitmap::layoutopt
