// The v0.4 printer against the kernel's widths (lockdep_proc.c), checked against fixtures that
// are verbatim /proc/lock_stat text, and print -> parse round trips.
#include "collector/locks/lockstat_layout.hpp"
#include "collector/locks/lockstat_parser.hpp"
#include "collector/locks/lockstat_printer.hpp"
#include "tests/locks/fixture_text.hpp"

#include <gtest/gtest.h>

namespace hitmap::locks {
namespace {

std::vector<std::string> lines_of(std::string_view text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto end = std::min(text.find('\n', start), text.size());
        lines.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

TEST(LockstatTimeFormat, MatchesSnprintTime) {
    // nr += 5; "%lld.%02d" of nr / 1000 and (nr % 1000) / 10
    EXPECT_EQ(format_lockstat_time(0), "0.00");
    EXPECT_EQ(format_lockstat_time(60), "0.06");
    EXPECT_EQ(format_lockstat_time(64), "0.06");
    EXPECT_EQ(format_lockstat_time(65), "0.07");
    EXPECT_EQ(format_lockstat_time(994), "0.99");
    EXPECT_EQ(format_lockstat_time(995), "1.00");
    EXPECT_EQ(format_lockstat_time(17464026916320), "17464026916.32");
    EXPECT_EQ(format_lockstat_time(-325), "0.-32"); // the signed remainder, as the kernel prints
}

TEST(LockStatPrinter, HeaderHasTheKernelsWidths) {
    const auto lines = lines_of(format_lock_stat_v04(LockStatReport{}));
    ASSERT_EQ(lines.size(), 5u);
    EXPECT_EQ(lines[0], "lock_stat version 0.4");
    EXPECT_EQ(lines[1], std::string(221, '-')); // 40 + 1 + 12 * (14 + 1)
    EXPECT_EQ(lines[2].size(), 220u);           // "%40s" + 12 x " %14s"
    EXPECT_EQ(lines[2].substr(0, 41), std::string(30, ' ') + "class name ");
    EXPECT_EQ(lines[2].substr(lines[2].size() - 15), "   holdtime-avg");
    EXPECT_EQ(lines[3], lines[1]);
    EXPECT_EQ(lines[4], "");
}

TEST(LockStatPrinter, ReproducesTheContendedBlogListingByteForByte) {
    // A verbatim read of /proc/lock_stat (two contended classes, one with -W/-R rows, both point
    // lists). Every line is compared. The copy dropped one thing: the empty line the kernel
    // prints after the last dotted separator ("\n" + dots + "\n" + "\n").
    LOAD_LOCK_FIXTURE("lockstat-blog-2021-contended-v0.4.txt");
    const auto reports = parse_lock_stat(text);
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_EQ(format_lock_stat_v04(reports[0]), text + "\n");
}

TEST(LockStatPrinter, ReproducesTheUncontendedBlogListingByteForByte) {
    // Verbatim rows of 20 classes with zero contentions (quoted names, spaces, #N/N suffixes,
    // -W/-R pairs); the post starts at the first rule, so the version line is not compared. All
    // contentions are 0, so the stable sort keeps the file's order.
    LOAD_LOCK_FIXTURE("lockstat-blog-2021-uncontended-v0.4.txt");
    const auto reports = parse_lock_stat(text);
    ASSERT_EQ(reports.size(), 1u);
    const std::string printed = format_lock_stat_v04(reports[0]);
    const std::string version_line = "lock_stat version 0.4\n";
    ASSERT_EQ(printed.substr(0, version_line.size()), version_line);
    EXPECT_EQ(printed.substr(version_line.size()), text);
}

TEST(LockStatPrinter, ReproducesTheRstExampleLines2To31) {
    // Documentation/locking/lockstat.rst numbers its listing "  NN"; past those 4 characters
    // the lines are the kernel's, except line 01 where the doc put a space before
    // "lock_stat version 0.4". The listing ends at line 31, before the separator that follows
    // unix_table_lock's contending points. So: lines 02-31, without the numbers.
    LOAD_LOCK_FIXTURE("lockstat-rst-v0.4-example.txt");
    const auto fixture = lines_of(text);
    ASSERT_EQ(fixture.size(), 31u);
    const auto printed = lines_of(format_lock_stat_v04(parse_lock_stat(text).at(0)));
    ASSERT_GE(printed.size(), 31u);
    for (std::size_t i = 1; i < 31; ++i)
        EXPECT_EQ(printed[i], fixture[i].substr(4)) << "line " << i + 1;
}

TEST(LockStatPrinter, SortsByContentionsDescendingAndKeepsTiesInOrder) {
    LockStatReport report;
    const auto add = [&](std::string name, std::uint64_t write, std::optional<std::uint64_t> read) {
        LockClassStats stats;
        stats.name = std::move(name);
        stats.write = LockCounters{};
        stats.write->contentions = write;
        if (read) {
            stats.read = LockCounters{};
            stats.read->contentions = read;
        }
        report.classes.push_back(stats);
    };
    add("a", 1, std::nullopt);
    add("b", 5, 6); // 11 in total: first
    add("c", 1, std::nullopt);
    add("d", 10, std::nullopt);
    std::string order;
    for (const auto& line : lines_of(format_lock_stat_v04(report))) {
        if (line.size() <= 41 || line[40] != ':')
            continue;
        order += line[38] == '-' ? line[37] : line[39]; // "%38s-W:" or "%40s:"
    }
    EXPECT_EQ(order, "bbdac");
}

LockStatReport engine_like_report() {
    // What the engine's instrumented locks will hand over: every field present, 10 ns multiples.
    LockStatReport report;
    report.lockdep_disabled = true;
    LockClassStats res;
    res.name = "res_counter#2/1";
    res.name_version = 2;
    res.subclass = 1;
    res.source = LockFormat::lockstat_v04;
    res.write =
        LockCounters{12, 34, {LockTimes{10, 990, 5000, 140}}, 56, 78, {LockTimes{0, 20, 900, 10}}};
    res.read = LockCounters{1, 2, {LockTimes{30, 40, 70, 30}}, 3, 4, {LockTimes{50, 60, 210, 50}}};
    res.contention_points = {{20, 0xffffffff81090fd5, "res_counter_charge+0x45/0xe0"},
                             {16, std::nullopt, "charge_batch+0x1/0x2"}};
    res.contending_points = {{36, 0x1234, "res_counter_uncharge+0x2d/0x60"}};
    LockClassStats quiet;
    quiet.name = "a name with spaces";
    quiet.source = LockFormat::lockstat_v04;
    quiet.write = LockCounters{0, 0, {LockTimes{0, 0, 0, 0}}, 7, 8, {LockTimes{10, 20, 80, 10}}};
    report.classes = {res, quiet};
    return report;
}

TEST(LockStatPrinter, PrintThenParseGivesTheSameClasses) {
    const LockStatReport report = engine_like_report();
    const auto reparsed = parse_lock_stat(format_lock_stat_v04(report));
    ASSERT_EQ(reparsed.size(), 1u);
    EXPECT_TRUE(reparsed[0].lockdep_disabled);
    EXPECT_EQ(reparsed[0].classes, report.classes);
}

TEST(LockStatPrinter, PointListsFollowTheKernelsLayout) {
    const auto lines = lines_of(format_lock_stat_v04(engine_like_report()));
    EXPECT_EQ(lines[1], "*WARNING* lock debugging disabled!! - possibly due to a lockdep warning");
    // Rows "%38s-W:" and "%38s-R:", then a dash line as long as the name + 2 (an -R row exists).
    EXPECT_EQ(lines[6].substr(0, 41), std::string(23, ' ') + "res_counter#2/1-W:");
    EXPECT_EQ(lines[7].substr(0, 41), std::string(23, ' ') + "res_counter#2/1-R:");
    EXPECT_EQ(lines[8], std::string(23, ' ') + std::string(17, '-'));
    // "%40s %14lu %29s %pS"
    EXPECT_EQ(lines[9], std::string(25, ' ') + "res_counter#2/1" + std::string(13, ' ') + "20" +
                            std::string(10, ' ') +
                            "[<ffffffff81090fd5>] res_counter_charge+0x45/0xe0");
    EXPECT_EQ(lines[10].substr(55),
              " " + std::string(9, ' ') + "[<(____ptrval____)>] charge_batch+0x1/0x2");
    EXPECT_EQ(lines[11], lines[8]);
    EXPECT_EQ(lines[13], "");
    EXPECT_EQ(lines[14], std::string(221, '.'));
    EXPECT_EQ(lines[15], "");
    EXPECT_EQ(lines[16].substr(0, 41), std::string(22, ' ') + "a name with spaces:");
    EXPECT_EQ(lines.size(), 17u); // no points: no dash or dotted lines
}

TEST(LockStatPrinter, V04FixturesRoundTrip) {
    for (const char* name :
         {"lockstat-blog-2021-contended-v0.4.txt", "lockstat-blog-2021-uncontended-v0.4.txt",
          "lockstat-rst-v0.4-example.txt", "lockstat-rst-v0.4-grep-top10.txt",
          "lockstat-rst-v0.4-subclass-example.txt",
          "lockstat-lkml-2022-chenying-rq-lock-v0.4-wrapped.txt"}) {
        SCOPED_TRACE(name);
        LOAD_LOCK_FIXTURE(name);
        const auto reports = parse_lock_stat(text);
        ASSERT_EQ(reports.size(), 1u);
        const auto reparsed = parse_lock_stat(format_lock_stat_v04(reports[0]));
        ASSERT_EQ(reparsed.size(), 1u);
        // Same classes, though the printer reorders them by contentions like the kernel.
        auto sorted = reports[0].classes;
        std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
            return a.total_contentions() > b.total_contentions();
        });
        EXPECT_EQ(reparsed[0].classes, sorted);
    }
}

TEST(LockStatPrinter, V03DataPrintsAsV04WithComputedAverages) {
    LOAD_LOCK_FIXTURE("lockstat-lkml-2009-kamezawa-v0.3.txt");
    const auto report = parse_lock_stat(text).at(0);
    const auto lines = lines_of(format_lock_stat_v04(report));
    // 829793.69 us over 1196935 contentions = 0.69 us; 9490908.36 us / 45050576 = 0.21 us.
    EXPECT_EQ(lines[5], "                          &counter->lock:       1167034        1196935  "
                        "         0.52       16291.34      829793.69           0.69       "
                        "18742433       45050576           0.42       30788.81     9490908.36  "
                        "         0.21");
    EXPECT_EQ(lines[5].size(), 220u);
}

} // namespace
} // namespace hitmap::locks
