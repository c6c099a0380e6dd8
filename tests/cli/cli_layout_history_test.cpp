// Layout history end to end (issue 16): where each run's layouts came from (built-in, file, BTF),
// kept by merge; `show --layout`; `layout diff` of layouts stored with runs or named by hash; and
// the compare view's prediction, picked by the after run's layouts.
#include "collector/analysis/run_detail.hpp"
#include "collector/btf/btf_file.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_loader.hpp"
#include "tests/cli/cli_test_support.hpp"

#include <SQLiteCpp/SQLiteCpp.h>
#include <algorithm>
#include <cctype>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <regex>

namespace hitmap::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::filesystem::path kData = HITMAP_TEST_DATA;

// tests/data/small.db (runs 1, 2: page-counter-charge v6.0, v6.1; 3, 4: res-counter-charge), at
// schema 7: stored before layouts had origins or hashes.
std::string small_db(const TempDir& dir) {
    std::filesystem::copy_file(kData / "small.db", dir / "small.db");
    std::filesystem::copy(kData / "small.db.traces", dir / "small.db.traces");
    return (dir / "small.db").string();
}

CliResult cli(std::vector<std::string> args, const std::string& db, const TempDir& dir) {
    args.insert(args.end(), {"--db", db});
    return run_cli(args, dir.path());
}

// A traced page-counter-charge v6.0 run, under `layout` when given.
void traced_run(const std::string& db, const TempDir& dir, const std::string& variant = "v6.0",
                const std::string& layout = "") {
    std::vector<std::string> args{"run", "page-counter-charge", "--variant", variant, "--threads",
                                  "1",   "--iterations",        "300",       "--c2c", "software"};
    if (!layout.empty())
        args.insert(args.end(), {"--layout", layout});
    const CliResult r = cli(args, db, dir);
    ASSERT_EQ(r.status, 0) << r.err;
}

const nlohmann::json& layout_of(const nlohmann::json& run, const std::string& struct_name) {
    for (const auto& l : run["layouts"])
        if (l["struct"] == struct_name)
            return l;
    throw std::runtime_error("run " + run["id"].dump() + " has no " + struct_name + " layout");
}

std::vector<std::int64_t> run_ids(const std::string& db, const std::string& layout,
                                  const TempDir& dir) {
    const CliResult r = cli({"show", "--json", "--layout", layout}, db, dir);
    EXPECT_EQ(r.status, 0) << r.err;
    std::vector<std::int64_t> ids;
    for (const auto& run : nlohmann::json::parse(r.out))
        ids.push_back(run["id"]);
    return ids;
}

// Exits non-zero with one line on stderr holding `message`.
void expect_refused(const CliResult& r, const std::string& message) {
    EXPECT_NE(r.status, 0) << r.out;
    EXPECT_THAT(r.err, HasSubstr(message));
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
}

TEST(CliLayoutHistory, NewRunsKeepWhereTheirLayoutsCameFromAndMergeKeepsIt) {
    TempDir dir;
    const std::string a = (dir / "a.db").string(), all = (dir / "all.db").string();
    engine::Layout padded = *engine::find_builtin_layout("page_counter", "v6.1");
    padded.version = "padded-try";
    const std::string file = (dir / "padded.json").string();
    std::ofstream(file) << engine::layout_json(padded);
    traced_run(a, dir);
    traced_run(a, dir, "v6.0", "page_counter=" + file);

    const auto runs = show_json(a, dir);
    ASSERT_EQ(runs.size(), 2u);
    for (const auto& run : runs)
        for (const auto& l : run["layouts"]) {
            EXPECT_TRUE(std::regex_match(l["hash"].get<std::string>(), std::regex("[0-9a-f]{12}")))
                << l;
            if (l["struct"] != "mem_cgroup" || run["id"] == 1) {
                EXPECT_EQ(l["origin"], "built-in") << l;
            }
        }
    const auto& from_file = layout_of(runs[1], "mem_cgroup");
    EXPECT_EQ(from_file["version"], "v6.0 with page_counter padded-try");
    EXPECT_EQ(from_file["origin"],
              "built-in mem_cgroup v6.0 around page_counter from file " + file);
    // The file's layout is v6.1's shape: its run is the one whose mem_cgroup holds it.
    EXPECT_EQ(run_ids(a, "page_counter=" + file, dir), std::vector<std::int64_t>{2});
    EXPECT_EQ(run_ids(a, "page_counter=v6.1", dir), std::vector<std::int64_t>{2});

    const CliResult merged = run_cli({"merge", a, "-o", all}, dir.path());
    ASSERT_EQ(merged.status, 0) << merged.err;
    const auto copies = show_json(all, dir);
    ASSERT_EQ(copies.size(), runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
        EXPECT_EQ(copies[i]["layouts"], runs[i]["layouts"]) << "run " << i + 1;
}

TEST(CliLayoutHistory, ARunUnderTheKernelsBtfKeepsItsOrigin) {
    if (!std::filesystem::exists(btf::kKernelBtfPath))
        GTEST_SKIP() << "no " << btf::kKernelBtfPath << " (kernel built without BTF)";
    TempDir dir;
    const std::string db = (dir / "k.db").string();
    traced_run(db, dir, "v6.0", "page_counter=btf");
    const auto runs = show_json(db, dir);
    ASSERT_EQ(runs.size(), 1u);
    const auto& memcg = layout_of(runs[0], "mem_cgroup");
    EXPECT_THAT(memcg["version"].get<std::string>(), StartsWith("v6.0 with page_counter btf:"));
    EXPECT_THAT(memcg["origin"].get<std::string>(),
                StartsWith("built-in mem_cgroup v6.0 around page_counter from BTF " +
                           std::string(btf::kKernelBtfPath) + " (kernel "));
    EXPECT_THAT(memcg["origin"].get<std::string>(), HasSubstr(", xxh3-128 "));
    EXPECT_EQ(run_ids(db, "page_counter=btf", dir), std::vector<std::int64_t>{1});
}

TEST(CliLayoutHistory, ShowSelectsRunsByLayout) {
    TempDir dir;
    const std::string db = small_db(dir);
    const auto runs = show_json(db, dir);
    ASSERT_EQ(runs.size(), 4u);
    const std::string v60 = layout_of(runs[0], "mem_cgroup")["hash"];
    EXPECT_EQ(layout_of(runs[0], "mem_cgroup")["origin"], nullptr) << "stored before origins";
    const CliResult text = cli({"show"}, db, dir);
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr("mem_cgroup@v6.0#" + v60 + ", memcg_percpu_stats@v6.0#"));

    using Ids = std::vector<std::int64_t>;
    EXPECT_EQ(run_ids(db, v60.substr(0, 4), dir), Ids{1});
    EXPECT_EQ(run_ids(db, "#" + v60, dir), Ids{1});
    std::string upper = v60.substr(0, 6);
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    EXPECT_EQ(run_ids(db, upper, dir), Ids{1});
    EXPECT_EQ(run_ids(db, "mem_cgroup=hash:" + v60, dir), Ids{1});
    EXPECT_EQ(run_ids(db, "mem_cgroup=run:2", dir), Ids{2});
    EXPECT_EQ(run_ids(db, "mem_cgroup=v6.1", dir), Ids{2}); // the stored name
    EXPECT_EQ(run_ids(db, "memcg_stock_pcp=v5.10", dir), (Ids{1, 2}));
    EXPECT_EQ(run_ids(db, "res_counter=v2.6.31", dir), (Ids{3, 4}));
    // A layout no run recorded: no runs, said so.
    const CliResult none = cli({"show", "--layout", "mem_cgroup=v6.15"}, db, dir);
    ASSERT_EQ(none.status, 0) << none.err;
    EXPECT_THAT(none.out, HasSubstr("no runs in " + db +
                                    " recorded objects under layout "
                                    "mem_cgroup=v6.15"));

    std::string absent = "0000";
    for (const auto& run : runs)
        for (const auto& l : run["layouts"])
            if (l["hash"].get<std::string>().starts_with(absent))
                absent = "ffff";
    expect_refused(cli({"show", "--layout", absent}, db, dir),
                   "no layout in " + db + " has a hash starting with " + absent);
    expect_refused(cli({"show", "--layout", "2df"}, db, dir),
                   "'2df' is not a layout hash: 4 to 12 hex digits");
    expect_refused(cli({"show", "--layout", "mem_cgroup=v9.9"}, db, dir),
                   "unknown mem_cgroup layout 'v9.9'");
}

TEST(CliLayoutHistory, LayoutDiffReadsLayoutsStoredWithRunsOrByHash) {
    TempDir dir;
    const std::string db = small_db(dir);
    const auto runs = show_json(db, dir);
    const std::string v60 = layout_of(runs[0], "mem_cgroup")["hash"];
    const std::string v61 = layout_of(runs[1], "mem_cgroup")["hash"];

    const CliResult by_run =
        cli({"layout", "diff", "mem_cgroup=run:1", "mem_cgroup=run:2", "--json"}, db, dir);
    ASSERT_EQ(by_run.status, 0) << by_run.err;
    const auto diff = nlohmann::json::parse(by_run.out);
    EXPECT_EQ(diff["a"]["version"], "v6.0");
    EXPECT_EQ(diff["a"]["origin"], "run 1 of " + db + ": origin unknown");
    EXPECT_EQ(diff["b"]["origin"], "run 2 of " + db + ": origin unknown");
    // v6.0 puts the limits on memory.usage's line; v6.1 gives the counter a line of its own.
    ASSERT_EQ(diff["hot_lines"].size(), 1u);
    EXPECT_THAT(diff["hot_lines"][0]["left"].get<std::vector<std::string>>(),
                ::testing::IsSupersetOf({"memory.min", "memory.low", "memory.high", "memory.max"}));

    const CliResult by_hash = cli({"layout", "diff", "mem_cgroup=hash:" + v60.substr(0, 5),
                                   "mem_cgroup=hash:" + v61, "--json"},
                                  db, dir);
    ASSERT_EQ(by_hash.status, 0) << by_hash.err;
    const auto same = nlohmann::json::parse(by_hash.out);
    EXPECT_EQ(same["a"]["origin"], "layout #" + v60 + " of " + db);
    EXPECT_EQ(same["fields"], diff["fields"]);
    EXPECT_EQ(same["hot_lines"], diff["hot_lines"]);
    // Stored against built-in, in text.
    const CliResult mixed = cli({"layout", "diff", "mem_cgroup=run:2", "mem_cgroup=v6.1"}, db, dir);
    ASSERT_EQ(mixed.status, 0) << mixed.err;
    EXPECT_THAT(mixed.out, HasSubstr("  A: v6.1 (run 2 of " + db + ": origin unknown, "));
    EXPECT_THAT(mixed.out, HasSubstr("  B: v6.1 (built-in, "));

    const auto diff_of = [&](const std::string& a) {
        return cli({"layout", "diff", a, "mem_cgroup=v6.1"}, db, dir);
    };
    expect_refused(diff_of("mem_cgroup=run:99"), "run 99 is not in " + db);
    expect_refused(diff_of("mem_cgroup=run:x"), "run id 'x' must be a whole number");
    expect_refused(diff_of("page_counter=run:1"),
                   "run 1 recorded no page_counter objects (its layouts: mem_cgroup@v6.0#" + v60);
    expect_refused(diff_of("mem_cgroup=hash:xyz1"), "'xyz1' is not a layout hash");
    expect_refused(diff_of("page_counter=hash:" + v60),
                   "layout mem_cgroup@v6.0#" + v60 + " is of struct mem_cgroup, not page_counter");
    expect_refused(cli({"layout", "diff", "mem_cgroup=run:1", "mem_cgroup=v6.1"},
                       (dir / "none.db").string(), dir),
                   "no hitmap database to open read-only");

    // A run whose objects of one struct have two layouts: which one is meant is not guessed.
    {
        SQLite::Database sql(db, SQLite::OPEN_READWRITE);
        sql.exec("INSERT INTO object (run_id, object_id, name, layout_id, phase) SELECT 1, 99, "
                 "'extra', layout_id, 0 FROM object WHERE run_id = 2 AND object_id = 0");
    }
    expect_refused(diff_of("mem_cgroup=run:1"),
                   "run 1 recorded mem_cgroup objects under 2 layouts: mem_cgroup@v6.0#" + v60 +
                       ", mem_cgroup@v6.1#" + v61 + "; name one as mem_cgroup=hash:HASH");
}

// The compare view's prediction (analysis::read_compare, as the app and the reports read it).
TEST(CliLayoutHistory, APairsPredictionIsTheOneUnderTheAfterRunsLayouts) {
    TempDir dir;
    const std::string db = (dir / "p.db").string();
    traced_run(db, dir, "v6.0");
    traced_run(db, dir, "v6.1");
    for (const char* layout : {"mem_cgroup=v6.1", "page_counter=v6.1"}) {
        const CliResult r = cli({"predict", "1", "--layout", layout, "--store"}, db, dir);
        ASSERT_EQ(r.status, 0) << r.err;
    }
    // Run 3 replays run 1 under run 2's layouts; run 4, newer, under v6.0's shape padded.
    const auto runs = show_json(db, dir);
    ASSERT_EQ(runs.size(), 4u);
    EXPECT_EQ(runs[2]["layouts"], runs[1]["layouts"]);
    EXPECT_EQ(layout_of(runs[3], "mem_cgroup")["origin"], "built-in");

    auto store = store::Database::open(db, {.read_only = true});
    const auto pair = analysis::read_compare(store, 1, 2);
    ASSERT_TRUE(pair.prediction_run);
    EXPECT_EQ(pair.prediction_run->id, 3);
    EXPECT_TRUE(pair.prediction);
    // No prediction of run 1 is under run 1's own layouts.
    const auto itself = analysis::read_compare(store, 1, 1);
    EXPECT_EQ(itself.prediction_run, std::nullopt);
    EXPECT_EQ(itself.prediction, std::nullopt);
}

} // namespace
} // namespace hitmap::testing
