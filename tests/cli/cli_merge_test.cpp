// `merge` end to end (issue 14): runs of two databases in one, traces and predictions following
// their runs, a re-merge adding nothing, and inputs it must refuse.
#include "tests/cli/cli_test_support.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace hitmap::testing {
namespace {

using ::testing::HasSubstr;

TEST(CliMerge, TwoDatabasesBecomeOneAndAReMergeAddsNothing) {
    TempDir dir;
    const auto a = (dir / "a.db").string(), b = (dir / "b.db").string();
    const auto all = (dir / "all.db").string();
    // a: a traced run with its trace file and a stored prediction pointing at it.
    ASSERT_EQ(seed_run(a, dir.path(), "300", {"--c2c", "software"}).status, 0);
    ASSERT_EQ(
        run_cli({"predict", "1", "--layout", "mem_cgroup=v6.1", "--store", "--db", a}, dir.path())
            .status,
        0);
    // b: two untraced runs.
    ASSERT_EQ(seed_run(b, dir.path(), "100").status, 0);
    ASSERT_EQ(seed_run(b, dir.path(), "100").status, 0);

    const CliResult first = run_cli({"merge", b, a, "-o", all}, dir.path());
    ASSERT_EQ(first.status, 0) << first.err;
    EXPECT_THAT(first.out, HasSubstr("a.db: 2 runs added, 0 already in"));
    EXPECT_THAT(first.out, HasSubstr("1 trace file copied"));
    const auto merged = show_json(all, dir);
    ASSERT_EQ(merged.size(), 4u);

    // a's runs are 3 and 4 now: the prediction points at 3, and 3's report reads its copied
    // trace's tables exactly as in a.
    EXPECT_EQ(merged[3]["predicted_from"], 3);
    const CliResult original = run_cli({"report", "1", "--db", a}, dir.path());
    const CliResult copy = run_cli({"report", "3", "--db", all}, dir.path());
    ASSERT_EQ(copy.status, 0) << copy.err;
    // Past the header (when and where the report was made) and the title (the run's id).
    const auto body = [](const std::string& text) {
        return text.substr(text.find('\n', text.find('\n') + 1));
    };
    EXPECT_EQ(body(copy.out), body(original.out));
    EXPECT_TRUE(std::filesystem::exists(dir / "all.db.traces/run-3.trace.zst"));
    EXPECT_EQ(
        run_cli({"predict", "3", "--layout", "mem_cgroup=v6.1", "--db", all}, dir.path()).status,
        0);

    const CliResult again = run_cli({"merge", a, b, "-o", all}, dir.path());
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_THAT(again.out, HasSubstr("a.db: 0 runs added, 2 already in"));
    EXPECT_THAT(again.out, HasSubstr("b.db: 0 runs added, 2 already in"));
    EXPECT_EQ(show_json(all, dir).size(), 4u);
}

TEST(CliMerge, RefusesItsOutputAndFilesItCannotRead) {
    TempDir dir;
    const auto a = (dir / "a.db").string();
    ASSERT_EQ(seed_run(a, dir.path(), "100").status, 0);
    const auto refused = [&](const std::vector<std::string>& args) {
        const CliResult r = run_cli(args, dir.path());
        EXPECT_NE(r.status, 0);
        EXPECT_EQ(count_lines(r.err), 1) << r.err;
        return r.err;
    };
    EXPECT_THAT(refused({"merge", a, "-o", a}), HasSubstr("is the output of the merge"));
    { std::ofstream((dir / "junk.db").string()) << "not a database"; }
    EXPECT_THAT(refused({"merge", (dir / "junk.db").string(), "-o", (dir / "out.db").string()}),
                HasSubstr("junk.db"));
    // The committed small.db is at schema 7: refused with the reason, nothing written.
    std::filesystem::copy_file(std::string(HITMAP_TEST_DATA) + "/small.db", dir / "old.db");
    EXPECT_THAT(refused({"merge", (dir / "old.db").string(), "-o", a}),
                HasSubstr("schema version 7, this hitmap needs "));
    EXPECT_EQ(show_json(a, dir).size(), 1u);
}

// A full disk while the trace is copied: the merge is refused in one line and leaves the output
// as it was, with no trace file (not even a partial one). RLIMIT_FSIZE stands in for the disk:
// a write past it fails with EFBIG, as one past a full disk fails with ENOSPC (SIGXFSZ, which
// would kill the process instead, is ignored for it).
TEST(CliMerge, AFullDiskLeavesNoTraceFileBehind) {
    TempDir dir;
    const auto a = (dir / "a.db").string(), out = (dir / "out.db").string();
    ASSERT_EQ(seed_run(a, dir.path(), "50000", {"--c2c", "software"}).status, 0);
    ASSERT_EQ(seed_run(out, dir.path(), "100").status, 0);
    const auto trace_bytes = std::filesystem::file_size(dir / "a.db.traces/run-1.trace.zst");
    const auto db_bytes = std::filesystem::file_size(out);
    const auto limit = std::to_string((trace_bytes + db_bytes) / 2);
    ASSERT_LT(db_bytes * 2, trace_bytes) << "the trace must be the file that does not fit";
    const CliResult r = run_command(
        {"sh", "-c",
         "trap '' XFSZ; exec prlimit --fsize=" + limit + " \"$0\" merge \"$1\" -o \"$2\"",
         hitmap_collect(), a, out},
        dir.path());
    EXPECT_NE(r.status, 0);
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_THAT(r.err, HasSubstr("run 1's trace: cannot write"));
    EXPECT_THAT(r.err, HasSubstr("File too large"));
    EXPECT_THAT(r.err, ::testing::Not(HasSubstr("filesystem error")));
    EXPECT_TRUE(std::filesystem::is_empty(dir / "out.db.traces"));
    EXPECT_EQ(show_json(out, dir).size(), 1u);
}

} // namespace
} // namespace hitmap::testing
