// Lock tables: every parsed fixture and a report using every field read back equal; absent
// values stay absent; a value the store cannot hold drops the whole finishing transaction.
#include "collector/locks/errors.hpp"
#include "collector/locks/lock_import.hpp"
#include "collector/store/database.hpp"
#include "collector/store/errors.hpp"
#include "collector/store/lock_tables.hpp"
#include "collector/store/run_writer.hpp"
#include "collector/store/sql_connection.hpp"
#include "tests/store/store_test_support.hpp"
#include "tests/support/read_file.hpp"
#include "tests/support/shared_dir.hpp"

#include <SQLiteCpp/Database.h>
#include <gtest/gtest.h>
#include <limits>

namespace hitmap::store {
namespace {

using testing::sample_run;

class LockTablesTest : public ::testing::Test {
protected:
    testing::TempDir dir;
    Database db = Database::open(dir / "hitmap.db");
    std::int64_t machine_id = db.upsert_machine({.host = "bench-1", .kernel = "6.1"}, "{}");

    std::int64_t run_with(const std::vector<LockData>& tables) {
        const auto id = db.begin_run(sample_run(machine_id));
        db.finish_run(id, {}, [&](RunWriter& writer) {
            for (const auto& t : tables)
                writer.write(t);
        });
        return id;
    }
    int count(const char* table) {
        return sql_connection(db).execAndGet(std::string("SELECT count(*) FROM ") + table).getInt();
    }
};

// Every field set, some to values SQLite cannot hold as signed integers.
LockData full_report() {
    locks::LockCounters w;
    w.con_bounces = 3;
    w.contentions = 1196935;
    w.wait = {.min_ns = 520, .max_ns = 16291340, .total_ns = 829793690, .avg_ns = 693};
    w.acq_bounces = std::nullopt;
    w.acquisitions = 45050576;
    w.hold = {.min_ns = -320, .max_ns = std::nullopt, .total_ns = 0, .avg_ns = 0};
    locks::LockCounters r = w;
    r.contentions = 0;
    r.wait = {};

    locks::LockClassStats both;
    both.name = "&type->s_umount_key#4/1";
    both.name_version = 4;
    both.subclass = 1;
    both.write = w;
    both.read = r;
    both.contention_points = {{638151, 0xffffffff81090fd5ull, "res_counter_charge+0x45/0xe0"},
                              {7, std::nullopt, "hidden+0x1/0x2"}};
    both.contending_points = {{679567, 0xffffffff81090f5dull, "res_counter_uncharge+0x2d/0x60"}};
    both.source = locks::LockFormat::lockstat_v04;

    locks::LockClassStats perf;
    perf.name = "0xffff8881001d2840";
    perf.key = locks::LockKey::lock_address;
    perf.lock_type = "rwsem:R";
    perf.pid = -1;
    perf.lock_address = std::numeric_limits<std::uint64_t>::max();
    locks::LockCounters waits_only; // perf has no bounces, acquisitions or hold times
    waits_only.contentions = 12;
    waits_only.wait.max_ns = 9000;
    waits_only.wait.total_ns = 9000;
    perf.read = waits_only;
    perf.stack = {{0xffffffff81c4bd5full, "pipe_read+0x56"}, {0, ""}};
    perf.source = locks::LockFormat::perf_lock_contention;

    locks::LockClassStats bare; // listed without statistics
    bare.name = "lonely";

    LockData d;
    d.source = LockSource::engine;
    d.report.format = locks::LockFormat::lockstat_v04;
    d.report.version = "0.4";
    d.report.caption = "clamd:";
    d.report.has_header = true;
    d.report.lockdep_disabled = true;
    d.report.excerpt = true;
    d.report.notes = {"line 7: truncated time", "line 9: negative average"};
    d.report.classes = {both, perf, bare};
    d.histograms["&type->s_umount_key#4/1"].record(700);
    d.histograms["&type->s_umount_key#4/1"].record(0);
    d.histograms["0xffff8881001d2840"].counts[63] = 5;
    return d;
}

TEST_F(LockTablesTest, EveryFieldRoundTripsInOrder) {
    LockData second = full_report();
    second.source = LockSource::kernel;
    second.report.caption.reset();
    second.report.notes.clear();
    second.histograms.clear();
    const auto id = run_with({full_report(), second});
    EXPECT_EQ(read_lock_tables(db, id), (std::vector<LockData>{full_report(), second}));
    EXPECT_EQ(count("lock_class_stat"), 2 * 4); // both sides, one, the bare class's single row
}

TEST_F(LockTablesTest, AbsentCountersAreNullNotZero) {
    run_with({full_report()});
    EXPECT_EQ(sql_connection(db)
                  .execAndGet("SELECT count(*) FROM lock_class_stat WHERE name = 'lonely' AND "
                              "side IS NULL AND contentions IS NULL")
                  .getInt(),
              1);
    EXPECT_EQ(sql_connection(db)
                  .execAndGet("SELECT acq_bounces IS NULL AND hold_max_ns IS NULL FROM "
                              "lock_class_stat WHERE side = 'write'")
                  .getInt(),
              1);
}

TEST_F(LockTablesTest, EmptyHistogramIsNotStored) {
    LockData d = full_report();
    d.histograms["never waited"] = {};
    const auto id = run_with({d});
    EXPECT_EQ(read_lock_tables(db, id).front().histograms, full_report().histograms);
}

TEST_F(LockTablesTest, RunWithoutLockDataReadsEmpty) {
    EXPECT_TRUE(read_lock_tables(db, run_with({})).empty());
}

TEST_F(LockTablesTest, CounterBeyondSqliteRangeDropsTheWholeFinish) {
    LockData d = full_report();
    d.report.classes[0].write->contentions = std::numeric_limits<std::uint64_t>::max();
    const auto id = db.begin_run(sample_run(machine_id));
    EXPECT_THROW(db.finish_run(id, {}, [&](RunWriter& writer) { writer.write(d); }),
                 LockValueOutOfRange);
    EXPECT_EQ(db.run(id)->status, RunStatus::running);
    EXPECT_EQ(count("lock_table"), 0);
    EXPECT_EQ(count("lock_class_stat"), 0);
}

TEST_F(LockTablesTest, DeletingTheRunDeletesItsLockTables) {
    const auto id = run_with({full_report()});
    SQLite::Statement del(sql_connection(db), "DELETE FROM run WHERE id = ?");
    del.bind(1, id);
    del.exec();
    for (const char* table : {"lock_table", "lock_class_stat", "lock_point", "lock_wait_hist"})
        EXPECT_EQ(count(table), 0) << table;
}

// Each real lock_stat / perf lock output reads back as parsed; the other tools' outputs are
// not imported at all.
TEST_F(LockTablesTest, EveryFixtureRoundTrips) {
    HITMAP_REQUIRE_SHARED(fixtures, "fixtures/lockstat");
    int stored = 0;
    for (const auto& entry : std::filesystem::directory_iterator(fixtures)) {
        const std::string name = entry.path().filename().string();
        SCOPED_TRACE(name);
        std::vector<locks::LockStatReport> reports;
        try {
            reports = locks::parse_lock_text(::hitmap::testing::read_file(entry.path()));
        } catch (const locks::UnsupportedLockFormat&) {
            EXPECT_TRUE(name.starts_with("mutrace") || name.starts_with("illumos"));
            continue;
        }
        ASSERT_FALSE(reports.empty());
        const LockSource source =
            name.starts_with("perf") ? LockSource::perf_lock : LockSource::lockstat;
        std::vector<LockData> tables;
        for (const auto& r : reports)
            tables.push_back({source, r, {}});
        EXPECT_EQ(read_lock_tables(db, run_with(tables)), tables);
        ++stored;
    }
    EXPECT_GE(stored, 20);
}

locks::LockClassStats contended(const std::string& name, std::optional<std::uint64_t> write,
                                std::optional<std::uint64_t> read) {
    locks::LockClassStats c;
    c.name = name;
    if (write)
        c.write.emplace().contentions = *write;
    if (read)
        c.read.emplace().contentions = *read;
    return c;
}

std::vector<locks::LockClassStats> streamed(Database& db, std::int64_t table_id,
                                            LockClassOrder order) {
    std::vector<locks::LockClassStats> out;
    for_each_lock_class(
        db, table_id, [&](const locks::LockClassStats& c) { out.push_back(c); }, order);
    return out;
}

// The text report streams classes in the printer's order: both sides' contentions, descending,
// ties as written; each class comes with its own points.
TEST_F(LockTablesTest, ClassesStreamInContentionOrderWithTheirPoints) {
    LockData d;
    auto a = contended("a", 5, std::nullopt);
    auto b = contended("b", 2, 4);
    b.contention_points = {{9, 0x10, "b_site+0x1/0x2"}};
    auto c = contended("c", std::nullopt, std::nullopt);
    auto e = contended("e", std::nullopt, 5);
    e.stack = {{0x20, "e_frame+0x3"}};
    d.report.classes = {a, b, c, e};
    const auto id = run_with({d});
    const auto tables = read_lock_table_headers(db, id);
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_EQ(streamed(db, tables[0].id, LockClassOrder::by_contentions),
              (std::vector{b, a, e, c}));
    EXPECT_EQ(streamed(db, tables[0].id, LockClassOrder::written), (std::vector{a, b, c, e}));
}

// An import writes the table row before its rows and the fields known only at the end after.
TEST_F(LockTablesTest, TableWriterFinishStoresTheEndFields) {
    LockData d = full_report();
    const auto id = db.begin_run(sample_run(machine_id));
    db.finish_run(id, {}, [&](RunWriter& run) {
        locks::LockStatReport start = d.report;
        start.excerpt = false;
        start.notes.clear();
        LockTableWriter writer = run.begin_lock_table(d.source, start);
        for (const auto& c : d.report.classes)
            writer.add_class(c);
        writer.finish(d.report);
    });
    d.histograms.clear();
    EXPECT_EQ(read_lock_tables(db, id), std::vector{d});
}

TEST_F(LockTablesTest, PointOfAMissingClassIsCorrupt) {
    const auto id = run_with({full_report()});
    sql_connection(db).exec("UPDATE lock_point SET class_position = 7 WHERE kind = 'contending'");
    EXPECT_THROW(read_lock_tables(db, id), CorruptDatabase);
}

} // namespace
} // namespace hitmap::store
