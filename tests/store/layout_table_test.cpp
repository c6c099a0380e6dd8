// Layout history (issue 16): each run's layout origins, the layouts' short hashes (also of rows
// a schema-9 file stored), runs selected by layout, stored layouts read back by field name, and
// the prediction the compare view picks.
#include "collector/store/c2c_tables.hpp"
#include "collector/store/database.hpp"
#include "collector/store/layout_table.hpp"
#include "collector/store/run_writer.hpp"
#include "collector/store/sql_connection.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "tests/store/store_test_support.hpp"

#include <SQLiteCpp/SQLiteCpp.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hitmap::store {
namespace {

using testing::TempDir;

// The migration that added origins and hashes (0010_layout_history).
constexpr std::size_t kBeforeLayoutHistory = 9;

engine::Layout builtin(std::string_view version, std::string origin = "built-in") {
    engine::Layout l = *engine::find_builtin_layout("page_counter", version);
    l.origin = std::move(origin);
    return l;
}

// A complete run whose objects are page_counters under these layouts, one object each.
std::int64_t store_run(Database& db, const std::vector<engine::Layout>& layouts,
                       std::optional<std::int64_t> predicted_from = std::nullopt) {
    RunRecord run = testing::sample_run(db.upsert_machine(detect_machine(), "{}"));
    run.predicted_from = predicted_from;
    C2cData data;
    for (std::size_t i = 0; i < layouts.size(); ++i)
        data.objects.push_back(
            {static_cast<engine::ObjectId>(i), "counter" + std::to_string(i), layouts[i], 0});
    return db.insert_finished_run(run, {}, [&](RunWriter& writer) { writer.write(data); });
}

std::vector<std::optional<std::string>> origins(const std::vector<RunLayout>& layouts) {
    std::vector<std::optional<std::string>> out;
    for (const RunLayout& l : layouts)
        out.push_back(l.origin);
    return out;
}

TEST(LayoutHash, IsTheFirstTwelveHexDigitsOfTheSignaturesXxh3) {
    EXPECT_EQ(layout_hash("abc"), "78af5f94892f"); // XXH3-64("abc") = 0x78af5f94892f3950
    const engine::Layout v60 = builtin("v6.0");
    EXPECT_EQ(layout_hash(layout_signature(v60)).size(), kLayoutHashDigits);
    // A name is not shape: the version and origin leave the signature alone.
    engine::Layout renamed = v60;
    renamed.version = "btf:6.18";
    renamed.origin = "BTF /sys/kernel/btf/vmlinux";
    EXPECT_EQ(layout_signature(renamed), layout_signature(v60));
    EXPECT_NE(layout_signature(builtin("v6.1")), layout_signature(v60));
}

TEST(LayoutHistory, ASchema9FileGetsHashesAndUnknownOrigins) {
    TempDir dir;
    const auto path = dir / "hitmap.db";
    const engine::Layout v60 = builtin("v6.0");
    const std::string signature = layout_signature(v60);
    std::int64_t run = 0;
    {
        auto db = Database::open(path, {}, schemas::migrations().first(kBeforeLayoutHistory));
        run = db.begin_run(testing::sample_run(db.upsert_machine(detect_machine(), "{}")));
        // The rows as version 9 wrote them: no hash, no origin.
        SQLite::Database& sql = sql_connection(db);
        SQLite::Statement layout(sql, "INSERT INTO layout (struct, version, size, align, "
                                      "signature) VALUES ('page_counter', 'v6.0', ?, ?, ?)");
        layout.bind(1, static_cast<std::int64_t>(v60.size));
        layout.bind(2, static_cast<std::int64_t>(v60.align));
        layout.bind(3, signature);
        layout.exec();
        const std::int64_t id = sql.getLastInsertRowid();
        SQLite::Statement field(sql, "INSERT INTO layout_field VALUES (?, ?, ?, ?, ?)");
        for (engine::FieldId f = 0; f < v60.placement.size(); ++f) {
            if (!v60.has(f))
                continue;
            field.bind(1, id);
            field.bind(2, static_cast<int>(f));
            field.bind(3, std::string(v60.field_name(f)));
            field.bind(4, static_cast<std::int64_t>(v60.at(f).offset));
            field.bind(5, static_cast<std::int64_t>(v60.at(f).size));
            field.exec();
            field.reset();
        }
        sql.exec(fmt::format("INSERT INTO object VALUES ({}, 0, 'top', {}, 0)", run, id));
    }
    const auto expect_migrated = [&](Database& db) {
        const auto used = run_layouts(db, run);
        ASSERT_EQ(used.size(), 1u);
        EXPECT_EQ(used[0].layout.hash, layout_hash(signature));
        EXPECT_EQ(used[0].layout.version, "v6.0");
        EXPECT_EQ(used[0].origin, std::nullopt) << "stored before origins were";
        EXPECT_EQ(layout_signature(read_layout(db, used[0].layout.id)), signature);
    };
    const auto before = testing::backdated_snapshot(path);
    {
        // Read-only: hashed in the copy in memory, the file untouched.
        auto db = Database::open(path, {.read_only = true});
        expect_migrated(db);
    }
    EXPECT_EQ(testing::snapshot(path), before);
    auto db = Database::open(path);
    EXPECT_EQ(db.schema_version(), Database::latest_schema_version());
    expect_migrated(db);
    // The migrated table keeps its constraints: a hash is twelve lower-case hex digits.
    EXPECT_THROW(sql_connection(db).exec("UPDATE layout SET hash = 'ABCDEF012345'"),
                 SQLite::Exception);
    EXPECT_THROW(sql_connection(db).exec("UPDATE layout SET hash = NULL"), SQLite::Exception);
}

TEST(LayoutHistory, ARunKeepsWhereItsLayoutsCameFrom) {
    TempDir dir;
    auto db = Database::open(dir / "hitmap.db");
    const std::int64_t run = store_run(
        db, {builtin("v6.0"), builtin("v6.1", "file /tmp/padded.json"), builtin("v6.15", "")});
    const auto data = read_c2c(db, run);
    ASSERT_TRUE(data);
    ASSERT_EQ(data->objects.size(), 3u);
    EXPECT_EQ(data->objects[0].layout.origin, "built-in");
    EXPECT_EQ(data->objects[1].layout.origin, "file /tmp/padded.json");
    EXPECT_EQ(data->objects[2].layout.origin, "") << "unknown stays unknown";
    const auto used = run_layouts(db, run);
    ASSERT_EQ(used.size(), 3u);
    for (const RunLayout& u : used)
        EXPECT_EQ(u.layout.hash, layout_hash(layout_signature(*engine::find_builtin_layout(
                                     "page_counter", u.layout.version))));
    EXPECT_THAT(origins(used),
                ::testing::UnorderedElementsAre(std::optional<std::string>("built-in"),
                                                std::optional<std::string>("file /tmp/padded.json"),
                                                std::nullopt));
}

// The built-in v6.1 and a BTF layout of the same shape are one row; each run keeps its origin.
TEST(LayoutHistory, OneShapeIsOneRowAndEachRunKeepsItsOrigin) {
    TempDir dir;
    auto db = Database::open(dir / "hitmap.db");
    const std::int64_t builtin_run = store_run(db, {builtin("v6.1")});
    engine::Layout from_btf = builtin("v6.1", "BTF /sys/kernel/btf/vmlinux, xxh3-128 0123");
    from_btf.version = "btf:6.18";
    const std::int64_t btf_run = store_run(db, {from_btf});
    const auto a = run_layouts(db, builtin_run), b = run_layouts(db, btf_run);
    ASSERT_EQ(a.size(), 1u);
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(a[0].layout, b[0].layout);
    EXPECT_EQ(b[0].layout.version, "v6.1") << "the row keeps the first name it was stored under";
    EXPECT_EQ(a[0].origin, "built-in");
    EXPECT_EQ(b[0].origin, "BTF /sys/kernel/btf/vmlinux, xxh3-128 0123");
    EXPECT_TRUE(layouts_named(db, "page_counter", "btf:6.18").empty());
    EXPECT_EQ(layouts_named(db, "page_counter", "v6.1"), std::vector{a[0].layout});
    EXPECT_EQ(layout_label(a[0].layout), "page_counter@v6.1#" + a[0].layout.hash);
}

TEST(LayoutHistory, RunsAreSelectedByLayoutAndLayoutsByHashPrefix) {
    TempDir dir;
    auto db = Database::open(dir / "hitmap.db");
    const std::int64_t v60 = store_run(db, {builtin("v6.0")});
    const std::int64_t v61 = store_run(db, {builtin("v6.1")});
    const std::int64_t both = store_run(db, {builtin("v6.0"), builtin("v6.1")});
    const LayoutRow row = run_layouts(db, v60).front().layout;
    const auto ids = [&](const std::vector<RunRecord>& runs) {
        std::vector<std::int64_t> out;
        for (const RunRecord& r : runs)
            out.push_back(r.id);
        return out;
    };
    EXPECT_EQ(ids(db.runs({.layout_ids = std::vector{row.id}})), (std::vector{v60, both}));
    EXPECT_EQ(ids(db.runs({.layout_ids = std::vector<std::int64_t>{}})),
              std::vector<std::int64_t>{});
    EXPECT_EQ(ids(db.runs()), (std::vector{v60, v61, both}));
    EXPECT_EQ(stored_layouts(db), (std::vector{row, run_layouts(db, v61).front().layout}));
    EXPECT_EQ(layouts_with_hash_prefix(db, row.hash.substr(0, 4)).front(), row);
    EXPECT_EQ(layouts_with_hash_prefix(db, row.hash), std::vector{row});
    EXPECT_THROW(layouts_with_hash_prefix(db, "*"), std::invalid_argument);
}

// Field ids are the storing build's; names are what a layout means.
TEST(LayoutHistory, AStoredLayoutIsReadBackByFieldName) {
    TempDir dir;
    auto db = Database::open(dir / "hitmap.db");
    const engine::Layout v60 = builtin("v6.0");
    const std::int64_t run = store_run(db, {v60});
    const std::int64_t id = run_layouts(db, run).front().layout.id;
    // As if another build had numbered the fields the other way round.
    sql_connection(db).exec(
        fmt::format("UPDATE layout_field SET field_id = 200 - field_id WHERE layout_id = {}", id));
    const engine::Layout read = read_layout(db, id);
    EXPECT_EQ(read.at(engine::pc::usage).offset, v60.at(engine::pc::usage).offset);
    EXPECT_EQ(read.at(engine::pc::max).offset, v60.at(engine::pc::max).offset);
    EXPECT_EQ(layout_signature(read), layout_signature(v60));
    sql_connection(db).exec(
        fmt::format("UPDATE layout_field SET name = 'maximum' WHERE layout_id = {} AND name = "
                    "'max'",
                    id));
    EXPECT_THROW(read_layout(db, id), std::runtime_error);
}

// The compare view's prediction: of the predictions of the before run's trace, the newest under
// the after run's layouts, none when no prediction has them.
TEST(LayoutHistory, ThePredictionOfAPairIsTheOneUnderTheAfterRunsLayouts) {
    TempDir dir;
    auto db = Database::open(dir / "hitmap.db");
    const std::int64_t before = store_run(db, {builtin("v6.0")});
    const std::int64_t after = store_run(db, {builtin("v6.1")});
    const std::int64_t other = store_run(db, {builtin("v6.15")});
    const std::int64_t under_v61 = store_run(db, {builtin("v6.1")}, before);
    const std::int64_t under_v60 = store_run(db, {builtin("v6.0")}, before); // newer
    const auto picked = [&](std::int64_t layouts_of) {
        const auto p = db.latest_prediction(before, 4, layouts_of);
        return p ? std::optional(p->id) : std::nullopt;
    };
    EXPECT_EQ(picked(after), under_v61);
    EXPECT_EQ(picked(before), under_v60);
    EXPECT_EQ(picked(other), std::nullopt);
    EXPECT_EQ(db.latest_prediction(before, 8, after), std::nullopt) << "other threads";
    // Every layout, and no other: a run with one more struct layout is not predicted by it.
    const std::int64_t wider = store_run(db, {builtin("v6.1"), builtin("v6.15")});
    EXPECT_EQ(picked(wider), std::nullopt);
}

} // namespace
} // namespace hitmap::store
