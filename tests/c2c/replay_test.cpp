// Hand-built traces with outcomes computed by hand from the MESI rules.
#include "collector/c2c/errors.hpp"
#include "collector/c2c/replay.hpp"
#include "tests/c2c/trace_builder.hpp"

#include <gtest/gtest.h>

namespace hitmap::c2c {
namespace {

using engine::AccessKind;
using namespace testing;

ReplayConfig no_queueing() {
    ReplayConfig config;
    config.costs.queueing = false;
    return config;
}

ReplayResult run(const TraceBuilder& b, const std::vector<engine::ObjectInfo>& objects,
                 const ReplayConfig& config = no_queueing()) {
    const auto threads = b.threads();
    return replay(threads, objects, config);
}

// Thread t (on CPU t) performs access i of n, alternating between threads 0 and 1.
TraceBuilder alternate(int n, Field f0, Field f1, AccessKind kind) {
    TraceBuilder b(packed());
    for (int i = 0; i < n; ++i) {
        const auto t = static_cast<std::uint16_t>(i % 2);
        b.add(t, 100 * static_cast<std::uint64_t>(i), t, t == 0 ? f0 : f1, kind);
    }
    return b;
}

const PairStats* find_pair(const ReplayResult& r, Field accessor, std::optional<Field> writer) {
    for (const auto& p : r.pairs)
        if (p.accessor == accessor &&
            p.writer == (writer ? std::optional<engine::FieldId>(*writer) : std::nullopt))
            return &p;
    return nullptr;
}

TEST(Replay, AlternatingStoresToOneFieldAreStoreHitmAfterTheColdMiss) {
    const ReplayResult r = run(alternate(10, x, x, AccessKind::store), one_object(packed()));
    EXPECT_EQ(r.records, 10u);
    EXPECT_EQ(r.totals.cold, 1u);       // access 0
    EXPECT_EQ(r.totals.store_hitm, 9u); // accesses 1..9 each take M from the other CPU
    EXPECT_EQ(r.totals.l1_hit, 0u);
    EXPECT_EQ(r.totals.load_hitm, 0u);
    EXPECT_EQ(r.totals.hitm(), 9u);
    EXPECT_EQ(r.totals.transfers(), 9u);
    EXPECT_EQ(r.totals.stores, 10u);
    EXPECT_DOUBLE_EQ(r.totals.stall_cycles, 355.0 + 9 * 115.0);
    ASSERT_EQ(r.lines.size(), 1u);
    EXPECT_EQ(r.lines[0].line.index, 0u);
    ASSERT_EQ(r.fields.size(), 1u);
    EXPECT_EQ(r.fields[0].field_name, "x");
    EXPECT_EQ(r.fields[0].offset, 0u);
    EXPECT_EQ(r.fields[0].size, 8u);
    ASSERT_EQ(r.cpus.size(), 2u);
    EXPECT_EQ(r.cpus[0].cpu, 0u);
    EXPECT_EQ(r.cpus[0].counts.cold, 1u);
    EXPECT_EQ(r.cpus[0].counts.store_hitm, 4u);
    EXPECT_EQ(r.cpus[1].counts.store_hitm, 5u);
    ASSERT_EQ(r.pairs.size(), 1u);
    EXPECT_TRUE(r.pairs[0].true_sharing);
    EXPECT_EQ(r.pairs[0].counts.store_hitm, 9u);
}

TEST(Replay, ReadMostlyFieldStopsMovingOnceBothCpusShareIt) {
    TraceBuilder b(packed());
    b.add(0, 0, 0, x, AccessKind::store); // cold, M at CPU 0
    b.add(0, 10, 0, x, AccessKind::load); // hit
    b.add(1, 20, 1, x, AccessKind::load); // load HITM: both Shared
    for (int i = 0; i < 20; ++i)
        b.add(static_cast<std::uint32_t>(i % 2), 30 + 10 * static_cast<std::uint64_t>(i),
              static_cast<std::uint16_t>(i % 2), x, AccessKind::load);
    const ReplayResult r = run(b, one_object(packed()));
    EXPECT_EQ(r.totals.cold, 1u);
    EXPECT_EQ(r.totals.load_hitm, 1u);
    EXPECT_EQ(r.totals.l1_hit, 21u);
    EXPECT_EQ(r.totals.transfers(), 1u);
    EXPECT_EQ(r.totals.loads, 22u);
    const PairStats* p = find_pair(r, x, x);
    ASSERT_NE(p, nullptr);
    EXPECT_TRUE(p->true_sharing);
    EXPECT_EQ(p->counts.load_hitm, 1u);
}

TEST(Replay, TwoFieldsOnOneLineWrittenByDifferentCpusAreFalseSharing) {
    const ReplayResult r = run(alternate(10, x, y, AccessKind::store), one_object(packed()));
    EXPECT_EQ(r.totals.cold, 1u);
    EXPECT_EQ(r.totals.store_hitm, 9u);
    ASSERT_EQ(r.pairs.size(), 2u);
    const PairStats* y_after_x = find_pair(r, y, x);
    const PairStats* x_after_y = find_pair(r, x, y);
    ASSERT_NE(y_after_x, nullptr);
    ASSERT_NE(x_after_y, nullptr);
    EXPECT_FALSE(y_after_x->true_sharing);
    EXPECT_FALSE(x_after_y->true_sharing);
    EXPECT_EQ(y_after_x->counts.store_hitm, 5u); // accesses 1, 3, 5, 7, 9
    EXPECT_EQ(x_after_y->counts.store_hitm, 4u); // accesses 2, 4, 6, 8
    EXPECT_EQ(y_after_x->writer_name, "x");
    ASSERT_EQ(r.fields.size(), 2u);
    EXPECT_EQ(r.fields[0].field_name, "x");
    EXPECT_EQ(r.fields[1].field_name, "y");
    EXPECT_EQ(r.fields[1].offset, 8u);
    EXPECT_EQ(r.fields[1].counts.store_hitm, 5u);
}

TEST(Replay, OneFieldRmwByBothCpusIsTrueSharing) {
    const ReplayResult r = run(alternate(8, x, x, AccessKind::rmw), one_object(packed()));
    EXPECT_EQ(r.totals.store_hitm, 7u);
    ASSERT_EQ(r.pairs.size(), 1u);
    EXPECT_TRUE(r.pairs[0].true_sharing);
    EXPECT_EQ(r.pairs[0].accessor_name, "x");
    EXPECT_EQ(r.pairs[0].writer_name, "x");
    EXPECT_DOUBLE_EQ(r.totals.stall_cycles, 355.0 + 7 * 120.0); // atomics on M cost 120
}

TEST(Replay, TrueSharingSeesEveryWriteOfTheOwnersEpochNotOnlyTheLast) {
    TraceBuilder b(packed());
    b.add(0, 0, 0, x, AccessKind::rmw);    // cold
    b.add(0, 10, 0, y, AccessKind::store); // hit; y is now the last write, x still dirty
    b.add(1, 20, 1, x, AccessKind::rmw);   // store HITM on bytes CPU 0 wrote: true sharing
    const ReplayResult r = run(b, one_object(packed()));
    ASSERT_EQ(r.pairs.size(), 1u);
    EXPECT_TRUE(r.pairs[0].true_sharing);
    EXPECT_EQ(r.pairs[0].writer, std::optional<engine::FieldId>(x));
}

// CPU 0 writes x; CPUs 1 and 2 read it (load HITM, then clean forward): 3 sharers.
TraceBuilder three_sharers() {
    TraceBuilder b(packed());
    b.add(0, 0, 0, x, AccessKind::store);
    b.add(1, 10, 1, x, AccessKind::load);
    b.add(2, 20, 2, x, AccessKind::load);
    return b;
}

TEST(Replay, WriteByAFourthCpuInvalidatesAllThreeSharers) {
    TraceBuilder b = three_sharers();
    b.add(3, 30, 3, y, AccessKind::store);
    const ReplayResult r = run(b, one_object(packed()));
    EXPECT_EQ(r.totals.cold, 1u);
    EXPECT_EQ(r.totals.load_hitm, 1u);
    EXPECT_EQ(r.totals.clean_forward, 1u);
    EXPECT_EQ(r.totals.store_shared, 1u);
    EXPECT_EQ(r.totals.invalidations, 3u);
    EXPECT_EQ(r.totals.transfers(), 3u);
    const PairStats* p = find_pair(r, y, x);
    ASSERT_NE(p, nullptr);
    EXPECT_FALSE(p->true_sharing);
    EXPECT_EQ(p->counts.store_shared, 1u);
    EXPECT_EQ(p->counts.invalidations, 3u);
}

TEST(Replay, WriteByOneOfTheSharersInvalidatesTheOtherTwo) {
    TraceBuilder b = three_sharers();
    b.add(1, 30, 1, x, AccessKind::store);
    const ReplayResult r = run(b, one_object(packed()));
    EXPECT_EQ(r.totals.store_shared, 1u);
    EXPECT_EQ(r.totals.invalidations, 2u);
    // Afterwards CPU 1 owns the line: its next write is a hit, CPU 0's read a load HITM.
    b.add(1, 40, 1, x, AccessKind::store).add(0, 50, 0, x, AccessKind::load);
    const ReplayResult r2 = run(b, one_object(packed()));
    EXPECT_EQ(r2.totals.l1_hit, 1u);
    EXPECT_EQ(r2.totals.load_hitm, 2u);
}

TEST(Replay, StoreToALineOnlyEverReadHasNoWriter) {
    TraceBuilder b(packed());
    b.add(0, 0, 0, x, AccessKind::load);   // cold: Exclusive at CPU 0
    b.add(1, 10, 1, y, AccessKind::store); // clean line elsewhere: one invalidation
    const ReplayResult r = run(b, one_object(packed()));
    EXPECT_EQ(r.totals.store_shared, 1u);
    EXPECT_EQ(r.totals.invalidations, 1u);
    ASSERT_EQ(r.pairs.size(), 1u);
    EXPECT_EQ(r.pairs[0].writer, std::nullopt);
    EXPECT_EQ(r.pairs[0].writer_name, "");
}

TEST(Replay, ManyCpusKeepTheirCountsAsTheCpuTableGrows) {
    TraceBuilder b(packed());
    b.add(0, 0, 0, x, AccessKind::store);
    for (std::uint16_t cpu = 1; cpu < 10; ++cpu)
        b.add(cpu, 10u * cpu, static_cast<std::uint16_t>(cpu * 7), x, AccessKind::load);
    b.add(0, 1000, 0, x, AccessKind::store);
    const ReplayResult r = run(b, one_object(packed()));
    EXPECT_EQ(r.totals.load_hitm, 1u);
    EXPECT_EQ(r.totals.clean_forward, 8u);
    EXPECT_EQ(r.totals.invalidations, 9u);
    ASSERT_EQ(r.cpus.size(), 10u);
    EXPECT_EQ(r.cpus[0].cpu, 0u);
    EXPECT_EQ(r.cpus[0].counts.cold, 1u);
    EXPECT_EQ(r.cpus[0].counts.store_shared, 1u);
    EXPECT_EQ(r.cpus[1].cpu, 7u);
    EXPECT_EQ(r.cpus[1].counts.load_hitm, 1u);
    EXPECT_EQ(r.cpus[9].cpu, 63u);
    EXPECT_EQ(r.cpus[9].counts.clean_forward, 1u);
}

TEST(Replay, SameInputGivesAnEqualResult) {
    TraceBuilder b(packed());
    std::uint64_t seed = 12345;
    const auto next = [&] {
        return (seed = seed * 6364136223846793005u + 1442695040888963407u) >> 33;
    };
    for (int i = 0; i < 2000; ++i) {
        const auto t = static_cast<std::uint32_t>(next() % 3);
        b.add(t, static_cast<std::uint64_t>(i) * 7 + next() % 5, static_cast<std::uint16_t>(t),
              static_cast<Field>(next() % 3), static_cast<AccessKind>(next() % 4));
    }
    const ReplayResult a = run(b, one_object(packed()), ReplayConfig{});
    const ReplayResult c = run(b, one_object(packed()), ReplayConfig{});
    EXPECT_EQ(a, c);
    EXPECT_GT(a.totals.transfers(), 0u);
}

TEST(Replay, PaddedLayoutRemovesTheFalseSharingOfAPackedTrace) {
    const TraceBuilder b = alternate(10, x, y, AccessKind::store); // recorded under `packed`
    ReplayConfig config = no_queueing();
    config.layouts.emplace("pair", padded());
    const ReplayResult r = run(b, one_object(packed()), config);
    EXPECT_EQ(r.totals.transfers(), 0u);
    EXPECT_EQ(r.totals.cold, 2u);
    EXPECT_EQ(r.totals.l1_hit, 8u);
    ASSERT_EQ(r.lines.size(), 2u);
    EXPECT_EQ(r.lines[0].line.index, 0u);
    EXPECT_EQ(r.lines[1].line.index, 1u);
    EXPECT_EQ(r.lines[1].line.address, r.lines[0].line.address + 64);
    EXPECT_TRUE(r.pairs.empty());

    // 128-byte lines (adjacent-line prefetcher): x and y share a line again.
    config.line_size = 128;
    const ReplayResult r128 = run(b, one_object(packed()), config);
    EXPECT_EQ(r128.totals.store_hitm, 9u);
    ASSERT_EQ(r128.fields.size(), 2u);
    EXPECT_EQ(r128.fields[1].offset, 64u);
}

TEST(Replay, PhaseOverrideMovesAFieldAcrossALineBoundary) {
    const engine::Layout edge = pair_layout("edge", 64, 0, 56, 16); // y in the last 8 bytes
    TraceBuilder b(edge);
    for (int i = 0; i < 10; ++i)
        b.add(static_cast<std::uint32_t>(i % 2), 100u * static_cast<std::uint64_t>(i),
              static_cast<std::uint16_t>(i % 2), i % 2 ? y : x, AccessKind::store);
    ReplayConfig config = no_queueing();

    config.phase_override = 0;
    EXPECT_EQ(run(b, one_object(edge, 40), config).totals.store_hitm, 9u);

    config.phase_override = 8; // y now starts at 64: its own line
    const ReplayResult moved = run(b, one_object(edge, 0), config);
    EXPECT_EQ(moved.totals.transfers(), 0u);
    ASSERT_EQ(moved.fields.size(), 2u);
    EXPECT_EQ(moved.fields[0].offset, 8u); // x
    EXPECT_EQ(moved.fields[1].line.index, 1u);
    EXPECT_EQ(moved.fields[1].offset, 0u); // y

    config.phase_override = 4; // y at 60..67: split across both lines
    const ReplayResult split = run(b, one_object(edge, 0), config);
    EXPECT_EQ(split.records, 10u);
    ASSERT_EQ(split.lines.size(), 2u);
    EXPECT_EQ(split.lines[0].counts.cold, 1u);
    EXPECT_EQ(split.lines[0].counts.store_hitm, 9u);
    EXPECT_EQ(split.lines[1].counts.cold, 1u);
    EXPECT_EQ(split.lines[1].counts.l1_hit, 4u);
    EXPECT_EQ(split.totals.accesses(), 15u); // y's 5 accesses count once per line
    ASSERT_EQ(split.fields.size(), 3u);
    EXPECT_EQ(split.fields[1].offset, 60u);
    EXPECT_EQ(split.fields[1].size, 4u);
    EXPECT_EQ(split.fields[2].size, 4u);

    const auto sweep = phase_sweep(b.threads(), one_object(edge), config);
    ASSERT_EQ(sweep.size(), 8u);
    EXPECT_EQ(sweep[0].phase, 0u);
    EXPECT_EQ(sweep[0].transfers, 9u);
    for (std::size_t i = 1; i < sweep.size(); ++i)
        EXPECT_EQ(sweep[i].transfers, 0u) << "phase " << sweep[i].phase;
    ASSERT_EQ(sweep[0].fields.size(), 2u);
    EXPECT_EQ(sweep[0].fields[1].field_name, "y");
    EXPECT_EQ(sweep[0].fields[1].hitm, 5u);
}

TEST(Replay, ThreadModelSeparatesTwoThreadsThatRanOnOneCpu) {
    TraceBuilder b(packed());
    for (int i = 0; i < 10; ++i)
        b.add(i % 2 ? 200 : 100, 10u * static_cast<std::uint64_t>(i), 0, x, AccessKind::store);
    ReplayConfig config = no_queueing();
    const ReplayResult recorded = run(b, one_object(packed()), config);
    EXPECT_EQ(recorded.totals.cold, 1u);
    EXPECT_EQ(recorded.totals.l1_hit, 9u);
    ASSERT_EQ(recorded.cpus.size(), 1u);
    EXPECT_EQ(recorded.cpus[0].cpu, 0u);

    config.model_cpus = ModelCpus::thread;
    const ReplayResult threads = run(b, one_object(packed()), config);
    EXPECT_EQ(threads.model_cpus, ModelCpus::thread);
    EXPECT_EQ(threads.totals.cold, 1u);
    EXPECT_EQ(threads.totals.store_hitm, 9u);
    ASSERT_EQ(threads.cpus.size(), 2u);
    EXPECT_EQ(threads.cpus[0].cpu, 100u);
    EXPECT_EQ(threads.cpus[1].cpu, 200u);
}

TEST(Replay, QueueingAddsHalfACostPerOverlappingTransferAhead) {
    // Transfers 10 ticks apart, well inside a 115-cycle transfer: the k-th waits behind k.
    TraceBuilder close(packed());
    TraceBuilder apart(packed());
    for (int i = 0; i < 10; ++i) {
        const auto t = static_cast<std::uint16_t>(i % 2);
        close.add(t, 10u * static_cast<std::uint64_t>(i), t, x, AccessKind::store);
        apart.add(t, 1000u * static_cast<std::uint64_t>(i), t, x, AccessKind::store);
    }
    const ReplayConfig config; // queueing on
    // store HITMs k = 0..8: 115 * (1 + k/2) each, plus the cold miss.
    EXPECT_DOUBLE_EQ(run(close, one_object(packed()), config).totals.stall_cycles,
                     355.0 + 9 * 115.0 + 115.0 / 2 * 36);
    EXPECT_DOUBLE_EQ(run(apart, one_object(packed()), config).totals.stall_cycles,
                     355.0 + 9 * 115.0);
}

TEST(Replay, HitsAreCostedAtL1Latency) {
    TraceBuilder b(packed());
    b.add(0, 0, 0, x, AccessKind::store).add(0, 1, 0, x, AccessKind::load);
    ReplayConfig config = no_queueing();
    config.costs.l1_hit = 4;
    config.costs.cold = 300;
    EXPECT_DOUBLE_EQ(run(b, one_object(packed()), config).totals.stall_cycles, 304.0);
}

TEST(Replay, RejectsWhatItCannotPlace) {
    TraceBuilder unknown(packed());
    unknown.add(0, 0, 0, x, AccessKind::load, /*object=*/3);
    EXPECT_THROW(run(unknown, one_object(packed())), ReplayError);
    try {
        run(unknown, one_object(packed()));
    } catch (const ReplayError& e) {
        EXPECT_STREQ(e.what(), "thread 0 record 0: object id 3 is not in the object registry");
    }

    TraceBuilder uses_z(packed());
    uses_z.add(0, 0, 0, z, AccessKind::load);
    ReplayConfig config;
    engine::Layout no_z = pair_layout("v2", 16, 0, 8, 0);
    no_z.placement[z].reset();
    config.layouts.emplace("pair", no_z);
    try {
        run(uses_z, one_object(packed()), config);
        ADD_FAILURE() << "expected a ReplayError";
    } catch (const ReplayError& e) {
        EXPECT_STREQ(e.what(), "thread 0 record 0: object 'obj': field 2 ('z') is absent from "
                               "layout v2 of pair");
    }

    config = {};
    config.line_size = 32;
    EXPECT_THROW(run(uses_z, one_object(packed()), config), ReplayError);
    config = {};
    config.phase_override = 64;
    EXPECT_THROW(run(uses_z, one_object(packed()), config), ReplayError);
}

} // namespace
} // namespace hitmap::c2c
