// The c2c tables round trip (issue 9): a stored run's replay (tests/data/small.db, made by
// hitmap) written into a fresh database and read back is the same replay, field for field,
// and so is its trace file replayed again.
#include "collector/c2c/replay.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/database.hpp"
#include "collector/store/run_writer.hpp"
#include "collector/trace/trace_file.hpp"

#include <gtest/gtest.h>
#include <random>

namespace hitmap::store {
namespace {

const std::filesystem::path kData = HITMAP_TEST_DATA;

class Scratch {
public:
    Scratch() {
        path_ = std::filesystem::temp_directory_path() /
                ("hitmap-roundtrip-" + std::to_string(std::random_device{}()));
        std::filesystem::create_directories(path_);
    }
    ~Scratch() { std::filesystem::remove_all(path_); }
    std::filesystem::path operator/(const char* name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

C2cData stored_run_1(const Scratch& dir) {
    std::filesystem::copy_file(kData / "small.db", dir / "small.db");
    std::filesystem::copy(kData / "small.db.traces", dir / "small.db.traces");
    auto db = Database::open(dir / "small.db");
    auto data = read_c2c(db, 1);
    EXPECT_TRUE(data);
    return std::move(*data);
}

TEST(C2cTables, AStoredReplayWrittenAgainReadsBackTheSame) {
    Scratch dir;
    const C2cData original = stored_run_1(dir);
    ASSERT_FALSE(original.result.lines.empty());
    auto fresh = Database::open(dir / "fresh.db");
    RunRecord run;
    run.machine_id = fresh.upsert_machine(detect_machine(), "{}");
    run.workload = "page-counter-charge";
    run.variant = "v6.0";
    const auto id =
        fresh.insert_finished_run(run, {}, [&](RunWriter& writer) { writer.write(original); });
    const auto again = read_c2c(fresh, id);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->result, original.result);
    EXPECT_EQ(again->trace.records, original.trace.records);
    EXPECT_EQ(again->trace.traced_ops, original.trace.traced_ops);
    EXPECT_EQ(again->trace.file_hash, original.trace.file_hash);
    EXPECT_EQ(again->trace.cost_table, original.trace.cost_table);
    EXPECT_EQ(again->trace.known, store::KnownCounts{}); // a replay counts everything
    ASSERT_EQ(again->objects.size(), original.objects.size());
    for (std::size_t i = 0; i < original.objects.size(); ++i) {
        EXPECT_EQ(again->objects[i].name, original.objects[i].name);
        const auto& a = again->objects[i].layout;
        const auto& b = original.objects[i].layout;
        ASSERT_EQ(a.placement.size(), b.placement.size());
        for (engine::FieldId f = 0; f < a.placement.size(); ++f) {
            ASSERT_EQ(a.has(f), b.has(f)) << b.field_name(f);
            if (a.has(f)) {
                EXPECT_EQ(a.at(f).offset, b.at(f).offset) << b.field_name(f);
                EXPECT_EQ(a.at(f).size, b.at(f).size) << b.field_name(f);
            }
        }
    }
}

// Hardware sampling (`--c2c hardware`, `--c2c perf`) stores its tables with the clock "sampled"
// (migration 0009): the schema must take it, not only the replay's and the simulation's clocks.
TEST(C2cTables, SampledRunsStoreTheirClock) {
    Scratch dir;
    C2cData sampled = stored_run_1(dir);
    sampled.trace.clock = "sampled";
    sampled.trace.format = "perf-samples:intel_pebs";
    sampled.trace.cost_table = "measured:sample-weights";
    sampled.trace.path.reset();
    sampled.trace.bytes.reset();
    sampled.trace.file_hash.reset();
    sampled.trace.known.store_hitm = false;
    sampled.trace.known.cpu_migrations = false;
    auto fresh = Database::open(dir / "fresh.db");
    RunRecord run;
    run.machine_id = fresh.upsert_machine(detect_machine(), "{}");
    run.workload = "page-counter-charge";
    run.variant = "v6.0";
    run.c2c_source = C2cSource::hardware;
    const auto id =
        fresh.insert_finished_run(run, {}, [&](RunWriter& writer) { writer.write(sampled); });
    const auto again = read_c2c(fresh, id);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->trace.clock, "sampled");
    EXPECT_EQ(again->trace.format, "perf-samples:intel_pebs");
    EXPECT_EQ(again->result, sampled.result);
    // What the source could not count reads back unknown, the rest known.
    EXPECT_EQ(again->trace.known, sampled.trace.known);
    EXPECT_EQ(again->cpu_migrations(), std::nullopt);
    EXPECT_EQ(again->dropped_records(), sampled.trace.dropped_records);
}

// Replaying the stored trace with the run's own settings reproduces the stored tables: the
// replay is deterministic and the trace file is the one the tables came from.
TEST(C2cTables, ReplayingTheStoredTraceGivesTheStoredTables) {
    Scratch dir;
    const C2cData stored = stored_run_1(dir);
    const auto trace = collector::read_trace_file(
        collector::resolve_trace_path(dir / "small.db", *stored.trace.path),
        {stored.trace.bytes, stored.trace.file_hash, stored.trace.records});
    std::vector<c2c::ThreadTrace> threads;
    for (std::size_t t = 0; t < trace.threads.size(); ++t)
        threads.push_back({static_cast<std::uint32_t>(t), trace.threads[t]});
    c2c::ReplayConfig config;
    config.model_cpus = stored.result.model_cpus;
    const c2c::ReplayResult replayed = c2c::replay(threads, stored.objects, config);
    EXPECT_EQ(replayed.lines, stored.result.lines);
    EXPECT_EQ(replayed.fields, stored.result.fields);
    EXPECT_EQ(replayed.pairs, stored.result.pairs);
    EXPECT_EQ(replayed.totals, stored.result.totals);
}

} // namespace
} // namespace hitmap::store
