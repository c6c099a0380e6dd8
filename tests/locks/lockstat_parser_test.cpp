// /proc/lock_stat fixtures parsed; expected values read by hand from each file's text
// (times: microseconds with two decimals -> ns, e.g. 23656.56 -> 23656560).
#include "collector/locks/errors.hpp"
#include "collector/locks/lockstat_parser.hpp"
#include "tests/locks/fixture_text.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace hitmap::locks {
namespace {

using testing::class_counts;
using testing::find_class;

TEST(LockStatFixtures, Blog2021ContendedV04) {
    LOAD_LOCK_FIXTURE("lockstat-blog-2021-contended-v0.4.txt");
    const auto reports = parse_lock_stat(text);
    ASSERT_EQ(class_counts(reports), std::vector<std::size_t>{2});
    const auto& r = reports[0];
    EXPECT_EQ(r.format, LockFormat::lockstat_v04);
    EXPECT_EQ(r.version, "0.4");
    EXPECT_TRUE(r.has_header);

    const auto& dentry = find_class(r, "&dentry->d_lock");
    ASSERT_TRUE(dentry.write);
    EXPECT_FALSE(dentry.read);
    const LockCounters& w = *dentry.write;
    EXPECT_EQ(w.con_bounces, 6606u);
    EXPECT_EQ(w.contentions, 6642u);
    EXPECT_EQ(w.wait.min_ns, 60);
    EXPECT_EQ(w.wait.max_ns, 23656560);
    EXPECT_EQ(w.wait.total_ns, 133603590);
    EXPECT_EQ(w.wait.avg_ns, 20110);
    EXPECT_EQ(w.acq_bounces, 242023u);
    EXPECT_EQ(w.acquisitions, 1893479u);
    EXPECT_EQ(w.hold.min_ns, 0);
    EXPECT_EQ(w.hold.max_ns, 36452610);
    EXPECT_EQ(w.hold.total_ns, 427674180);
    EXPECT_EQ(w.hold.avg_ns, 230);
    ASSERT_EQ(dentry.contention_points.size(), 4u);
    ASSERT_EQ(dentry.contending_points.size(), 4u);
    EXPECT_EQ(dentry.contention_points[0],
              (LockPoint{1699, 0x0000000060216fb7, "lockref_get_not_dead+0xe/0x30"}));
    EXPECT_EQ(dentry.contending_points[3], (LockPoint{537, 0x3b543617, "lockref_get+0x9/0x20"}));

    const auto& mmap = find_class(r, "&mm->mmap_lock#2");
    EXPECT_EQ(mmap.name_version, 2u);
    EXPECT_EQ(mmap.subclass, std::nullopt);
    ASSERT_TRUE(mmap.write && mmap.read);
    EXPECT_EQ(mmap.write->contentions, 1328u);
    EXPECT_EQ(mmap.read->contentions, 3858u);
    EXPECT_EQ(mmap.read->acquisitions, 736764u);
    EXPECT_EQ(mmap.read->hold.total_ns, 8514224220);
    EXPECT_EQ(mmap.total_contentions(), 1328u + 3858u);
    EXPECT_EQ(mmap.contending_points.back(), (LockPoint{1, 0xd9e9fd4c, "prctl_set_mm+0xfa/0x540"}));
    EXPECT_EQ(mmap.source, LockFormat::lockstat_v04);
}

TEST(LockStatFixtures, Blog2021UncontendedV04NamesWithQuotesSpacesAndSuffixes) {
    LOAD_LOCK_FIXTURE("lockstat-blog-2021-uncontended-v0.4.txt");
    const auto reports = parse_lock_stat(text);
    // 25 rows, 5 of them -W/-R pairs.
    ASSERT_EQ(class_counts(reports), std::vector<std::size_t>{20});
    const auto& r = reports[0];
    EXPECT_EQ(r.version, "0.4"); // no version line: from the average columns
    const auto& quoted = find_class(r, "\"warn_unseeded_randomness\".lock");
    EXPECT_EQ(quoted.write->acquisitions, 1u);
    EXPECT_EQ(quoted.write->hold.avg_ns, 80);
    const auto& umount = find_class(r, "&type->s_umount_key#4/1");
    EXPECT_EQ(umount.name_version, 4u);
    EXPECT_EQ(umount.subclass, 1u);
    EXPECT_EQ(umount.write->hold.max_ns, 6780);
    const auto& subsys = find_class(r, "subsys mutex#2");
    EXPECT_EQ(subsys.name_version, 2u);
    const auto& pernet = find_class(r, "pernet_ops_rwsem");
    ASSERT_TRUE(pernet.read);
    EXPECT_EQ(pernet.read->hold.min_ns, 1129920);
    EXPECT_EQ(pernet.read->hold.avg_ns, 18886770);
    EXPECT_EQ(pernet.write->acquisitions, 115u);
    for (const auto& stats : r.classes)
        EXPECT_EQ(stats.total_contentions(), 0u) << stats.name;
}

TEST(LockStatFixtures, Torok2008MailWrappedV03HasTwoTables) {
    LOAD_LOCK_FIXTURE("lockstat-lkml-2008-torok-v0.3-wrapped.txt");
    const auto reports = parse_lock_stat(text);
    ASSERT_EQ(class_counts(reports), (std::vector<std::size_t>{2, 3}));
    EXPECT_EQ(reports[0].caption, "My testcase:");
    EXPECT_EQ(reports[1].caption, "clamd:");
    EXPECT_EQ(reports[0].format, LockFormat::lockstat_v03);

    // Each row is split over three lines: "&mm->mmap_sem-W:  4631" / "7196 82.92 ..." / ...
    const auto& mmap = find_class(reports[0], "&mm->mmap_sem");
    EXPECT_EQ(mmap.write->con_bounces, 4631u);
    EXPECT_EQ(mmap.write->contentions, 7196u);
    EXPECT_EQ(mmap.write->wait.min_ns, 82920);
    EXPECT_EQ(mmap.write->wait.total_ns, 33118519700);
    EXPECT_EQ(mmap.write->wait.avg_ns, 33118519700 / 7196); // v0.3 prints none: computed
    EXPECT_EQ(mmap.write->acquisitions, 17160u);
    EXPECT_EQ(mmap.write->hold.total_ns, 100180330);
    EXPECT_EQ(mmap.read->acquisitions, 214536u);
    // Point lines are split before "[<".
    EXPECT_EQ(mmap.contention_points[1],
              (LockPoint{59631, 0xffffffff80229af4, "do_page_fault+0x194/0xaa0"}));

    const auto& dcache = find_class(reports[1], "dcache_lock");
    EXPECT_EQ(dcache.write->acquisitions, 4963875u);
    EXPECT_EQ(dcache.contending_points[3],
              (LockPoint{4287, 0xffffffff802f0622, "d_alloc+0x162/0x210"}));
}

TEST(LockStatFixtures, Kamezawa2009V03) {
    LOAD_LOCK_FIXTURE("lockstat-lkml-2009-kamezawa-v0.3.txt");
    const auto reports = parse_lock_stat(text);
    ASSERT_EQ(class_counts(reports), std::vector<std::size_t>{1});
    const auto& counter = find_class(reports[0], "&counter->lock");
    const LockCounters& w = *counter.write;
    EXPECT_EQ(w.con_bounces, 1167034u);
    EXPECT_EQ(w.contentions, 1196935u);
    EXPECT_EQ(w.wait.min_ns, 520);
    EXPECT_EQ(w.wait.max_ns, 16291340);
    EXPECT_EQ(w.wait.total_ns, 829793690);
    EXPECT_EQ(w.acq_bounces, 18742433u);
    EXPECT_EQ(w.acquisitions, 45050576u);
    EXPECT_EQ(w.hold.min_ns, 420);
    EXPECT_EQ(w.hold.max_ns, 30788810);
    EXPECT_EQ(w.hold.total_ns, 9490908360);
    EXPECT_EQ(
        counter.contention_points,
        (std::vector<LockPoint>{{638151, 0xffffffff81090fd5, "res_counter_charge+0x45/0xe0"},
                                {558784, 0xffffffff81090f5d, "res_counter_uncharge+0x2d/0x60"}}));
    EXPECT_EQ(counter.contending_points[1].count, 517368u);
}

TEST(LockStatFixtures, Chenying2022MailWrappedV04) {
    LOAD_LOCK_FIXTURE("lockstat-lkml-2022-chenying-rq-lock-v0.4-wrapped.txt");
    const auto reports = parse_lock_stat(text);
    ASSERT_EQ(class_counts(reports), std::vector<std::size_t>{1});
    // Header and rows are wrapped over four lines each.
    EXPECT_TRUE(reports[0].has_header);
    const auto& rq = find_class(reports[0], "&rq->lock");
    const LockCounters& w = *rq.write;
    EXPECT_EQ(w.con_bounces, 25532u);
    EXPECT_EQ(w.contentions, 26471u);
    EXPECT_EQ(w.wait.avg_ns, 1600);
    EXPECT_EQ(w.acq_bounces, 1232063u);
    EXPECT_EQ(w.acquisitions, 6586225u);
    EXPECT_EQ(w.hold.total_ns, 10280028190);
    EXPECT_EQ(w.hold.avg_ns, 1560);
    EXPECT_EQ(rq.contention_points[2],
              (LockPoint{15426, 0x20af4cb5, "update_blocked_averages+0x30/0x6f0"}));
    EXPECT_EQ(rq.contending_points[3], (LockPoint{5333, 0x4969102f, "load_balance+0x3b7/0xe40"}));
}

TEST(LockStatFixtures, RstV04ExampleWithListingNumbers) {
    LOAD_LOCK_FIXTURE("lockstat-rst-v0.4-example.txt");
    const auto reports = parse_lock_stat(text);
    ASSERT_EQ(class_counts(reports), std::vector<std::size_t>{2});
    const auto& mmap = find_class(reports[0], "&mm->mmap_sem");
    EXPECT_EQ(mmap.write->con_bounces, 46u);
    EXPECT_EQ(mmap.write->hold.max_ns, 2220301690);
    EXPECT_EQ(mmap.write->hold.total_ns, 17464026916320);
    EXPECT_EQ(mmap.write->hold.avg_ns, 5975990);
    EXPECT_EQ(mmap.read->acquisitions, 34316685u);
    EXPECT_EQ(mmap.contention_points[0].symbol, "khugepaged_scan_mm_slot+0x57/0x280");
    const auto& unix_table = find_class(reports[0], "unix_table_lock");
    EXPECT_EQ(unix_table.write->contentions, 112u);
    EXPECT_EQ(unix_table.contention_points[0],
              (LockPoint{45, 0xffffffff8150ad8e, "unix_create1+0x16e/0x1b0"}));
}

TEST(LockStatFixtures, RstV04GrepTop10WithoutHeaderAndWithTabs) {
    LOAD_LOCK_FIXTURE("lockstat-rst-v0.4-grep-top10.txt");
    const auto reports = parse_lock_stat(text);
    // 10 rows; tasklist_lock-W and -R are one class.
    ASSERT_EQ(class_counts(reports), std::vector<std::size_t>{9});
    EXPECT_FALSE(reports[0].has_header);
    EXPECT_EQ(reports[0].format, LockFormat::lockstat_v04);
    const auto& clockevents = find_class(reports[0], "clockevents_lock");
    EXPECT_EQ(clockevents.write->contentions, 2947636u);
    EXPECT_EQ(clockevents.write->wait.total_ns, 1784540466340);
    const auto& tasklist = find_class(reports[0], "tasklist_lock");
    EXPECT_EQ(tasklist.write->contentions, 41130u);
    EXPECT_EQ(tasklist.read->contentions, 21305u);
    EXPECT_EQ(find_class(reports[0], "&(&dentry->d_lockref.lock)->rlock").write->acquisitions,
              12527025u);
}

TEST(LockStatFixtures, RstV04SubclassExample) {
    LOAD_LOCK_FIXTURE("lockstat-rst-v0.4-subclass-example.txt");
    const auto reports = parse_lock_stat(text);
    ASSERT_EQ(class_counts(reports), std::vector<std::size_t>{2});
    const auto& rq1 = find_class(reports[0], "&rq->lock/1");
    EXPECT_EQ(rq1.subclass, 1u);
    EXPECT_EQ(rq1.write->con_bounces, 1526u);
    EXPECT_EQ(rq1.write->contentions, 11488u);
    // One contention point, then four contending points.
    EXPECT_EQ(rq1.contention_points,
              (std::vector<LockPoint>{{11526, 0xffffffff8103ed58, "double_rq_lock+0x4f/0x54"}}));
    EXPECT_EQ(rq1.contending_points.size(), 4u);
    EXPECT_EQ(find_class(reports[0], "&rq->lock").write->con_bounces, 13128u);
}

TEST(LockStatFixtures, Stable2020AverageOverflowSnippetIsACroppedTable) {
    LOAD_LOCK_FIXTURE("lockstat-stable-2020-avg-overflow-snippet.txt");
    const auto reports = parse_lock_stat(text);
    ASSERT_EQ(class_counts(reports), std::vector<std::size_t>{1});
    const auto& r = reports[0];
    // The header starts at "acquisitions": no class name, no wait columns.
    const LockClassStats& only = r.classes[0];
    EXPECT_EQ(only.name, "");
    EXPECT_EQ(only.write->contentions, std::nullopt);
    EXPECT_EQ(only.write->con_bounces, std::nullopt);
    EXPECT_EQ(only.write->acquisitions, 2350439395u);
    EXPECT_EQ(only.write->hold.min_ns, 70);
    EXPECT_EQ(only.write->hold.max_ns, 353380);
    EXPECT_EQ(only.write->hold.total_ns, 649647067360);
    // "0.-32" is the s32 overflow: dropped, and the average recomputed from total / count.
    EXPECT_EQ(only.write->hold.avg_ns, 649647067360 / 2350439395);
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_NE(r.notes[0].find("line 3: holdtime-avg \"0.-32\""), std::string::npos) << r.notes[0];
}

TEST(LockStatFixtures, TxtV03ExampleTruncatedMinimumsAreAbsentWithANote) {
    LOAD_LOCK_FIXTURE("lockstat-txt-v0.3-example.txt");
    const auto reports = parse_lock_stat(text);
    ASSERT_EQ(class_counts(reports), std::vector<std::size_t>{2});
    const auto& mmap = find_class(reports[0], "&mm->mmap_sem");
    EXPECT_EQ(mmap.write->wait.min_ns, std::nullopt); // "18446744073708"
    EXPECT_EQ(mmap.write->wait.max_ns, 22924270);
    EXPECT_EQ(mmap.write->contentions, 538u);
    EXPECT_EQ(mmap.read->contentions, 587u);
    ASSERT_EQ(reports[0].notes.size(), 2u);
    EXPECT_EQ(reports[0].notes[0].rfind("line 6: waittime-min \"18446744073708\"", 0), 0u);
    const auto& dcache = find_class(reports[0], "dcache_lock");
    EXPECT_EQ(dcache.write->acq_bounces, 6745u);
    EXPECT_EQ(dcache.write->hold.total_ns, 118423410);
}

TEST(LockStatFixtures, TxtV03GrepTop10) {
    LOAD_LOCK_FIXTURE("lockstat-txt-v0.3-grep-top10.txt");
    const auto reports = parse_lock_stat(text);
    ASSERT_EQ(class_counts(reports), std::vector<std::size_t>{9});
    EXPECT_EQ(reports[0].format, LockFormat::lockstat_v03);
    const auto& mutex = find_class(reports[0], "&inode->i_mutex");
    EXPECT_EQ(mutex.write->wait.min_ns, std::nullopt);
    EXPECT_EQ(mutex.write->hold.min_ns, std::nullopt);
    EXPECT_EQ(mutex.write->hold.max_ns, 62318600);
    EXPECT_EQ(find_class(reports[0], "&inode->i_data.tree_lock").read->acquisitions, 231198u);
    EXPECT_EQ(find_class(reports[0], "&rq->rq_lock_key#2").name_version, 2u);
}

TEST(LockStatFixtures, TxtV03SubclassExample) {
    LOAD_LOCK_FIXTURE("lockstat-txt-v0.3-subclass-example.txt");
    const auto reports = parse_lock_stat(text);
    ASSERT_EQ(class_counts(reports), std::vector<std::size_t>{2});
    EXPECT_EQ(reports[0].format, LockFormat::lockstat_v03);
    const auto& rq1 = find_class(reports[0], "&rq->lock/1");
    EXPECT_EQ(rq1.write->con_bounces, 11526u);
    EXPECT_EQ(rq1.write->contentions, 11488u);
    EXPECT_EQ(rq1.write->hold.total_ns, 109388530);
}

// ---- text variants built from a clean table ----

constexpr std::string_view kKamezawa =
    "lock_stat version 0.3\n"
    "----------------------------------------------------------------------\n"
    "                              class name    con-bounces    contentions   waittime-min   "
    "waittime-max waittime-total    acq-bounces   acquisitions   holdtime-min   holdtime-max "
    "holdtime-total\n"
    "----------------------------------------------------------------------\n"
    "\n"
    "                          &counter->lock:       1167034        1196935           0.52       "
    "16291.34      829793.69       18742433       45050576           0.42       30788.81     "
    "9490908.36\n"
    "                          --------------\n"
    "                          &counter->lock         638151          [<ffffffff81090fd5>] "
    "res_counter_charge+0x45/0xe0\n"
    "                          --------------\n"
    "                          &counter->lock         679567          [<ffffffff81090fd5>] "
    "res_counter_charge+0x45/0xe0\n";

std::string replace(std::string text, std::string_view from, std::string_view to) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
}

std::string quoted(std::string_view text, std::string_view prefix) {
    std::string out;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto end = text.find('\n', start);
        out += prefix;
        out += text.substr(start, end - start + 1);
        start = end + 1;
    }
    return out;
}

TEST(LockStatText, MailQuotedTablesParseAsTheOriginal) {
    const auto plain = parse_lock_stat(kKamezawa);
    EXPECT_EQ(parse_lock_stat(quoted(kKamezawa, "> ")), plain);
    EXPECT_EQ(parse_lock_stat(quoted(kKamezawa, "> > >")), plain);
}

TEST(LockStatText, AConBouncesValueTouchingTheColonIsSplitOff) {
    // proc-new prints "%40s:%14lu ": a 14+ digit value leaves no space after the colon.
    const auto reports =
        parse_lock_stat(replace(std::string(kKamezawa), "&counter->lock:       1167034",
                                "&counter->lock:12345678901234567"));
    EXPECT_EQ(reports[0].classes[0].write->con_bounces, 12345678901234567u);
    EXPECT_EQ(reports[0].classes[0].name, "&counter->lock");
}

TEST(LockStatText, ProseAroundTablesIsSkippedAndSignaturesAreNotSeparators) {
    const std::string text = "Hi,\n\nresults: see below\n" + std::string(kKamezawa) +
                             "\nThanks.\n-- \nsig line: 12 34\n";
    const auto reports = parse_lock_stat(text);
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_EQ(reports[0].caption, "results: see below");
}

// A header quoted before a table's caption (a mail explaining the columns) was a table of its own
// and imported as an empty run. A header or rule without rows is no table unless a version line
// says it is /proc/lock_stat, which prints no row while nothing was counted (lock_stat off, or
// just cleared: seq_stats() in kernel/locking/lockdep_proc.c prints a class only once it has
// hold times).
TEST(LockStatText, AHeaderWithoutRowsBeforeACaptionIsNoTable) {
    const std::string header =
        "                              class name    con-bounces    contentions   waittime-min "
        "  waittime-max waittime-total    acq-bounces   acquisitions   holdtime-min   "
        "holdtime-max holdtime-total\n";
    const auto reports = parse_lock_stat(header + "\nMy testcase:\n" + std::string(kKamezawa));
    ASSERT_EQ(class_counts(reports), std::vector<std::size_t>{1});
    EXPECT_EQ(reports[0].caption, "My testcase:");
    EXPECT_TRUE(parse_lock_stat(header).empty());
    // With its version line, it is what /proc/lock_stat prints when nothing was counted.
    const auto empty = parse_lock_stat("lock_stat version 0.3\n" + header);
    ASSERT_EQ(class_counts(empty), std::vector<std::size_t>{0});
    EXPECT_EQ(empty[0].version, "0.3");
}

TEST(LockStatText, QuotedKernelBacktracesAreProse) {
    const std::string oops = "Call Trace:\n [<ffffffff8103bfc4>] task_rq_lock+0x43/0x75\n"
                             " [<ffffffff8104ba65>] try_to_wake_up+0x127/0x25a\n";
    const auto reports = parse_lock_stat(oops + std::string(kKamezawa) + "\n" + oops);
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_EQ(reports[0].classes[0].contending_points.size(), 1u);
}

TEST(LockStatText, LockdepWarningLineIsRecorded) {
    const auto reports = parse_lock_stat(replace(
        std::string(kKamezawa), "lock_stat version 0.3\n",
        "lock_stat version 0.3\n*WARNING* lock debugging disabled!! - possibly due to a lockdep "
        "warning\n"));
    EXPECT_TRUE(reports[0].lockdep_disabled);
}

// Malformed input: the error names the line (1-based in the original text) and the reason.
void expect_error(const std::string& text, std::size_t line, std::string_view reason_part) {
    try {
        const auto reports = parse_lock_stat(text);
        ADD_FAILURE() << "no error; " << reports.size() << " tables";
    } catch (const LockParseError& e) {
        EXPECT_EQ(e.line(), line) << e.what();
        EXPECT_NE(e.reason().find(reason_part), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).rfind(fmt::format("line {}: ", line), 0), 0u) << e.what();
    }
}

TEST(LockStatErrors, TruncatedRow) {
    expect_error(replace(std::string(kKamezawa),
                         "       16291.34      829793.69       18742433       "
                         "45050576           0.42       30788.81     9490908.36",
                         ""),
                 6, "has 3 of the 10 numeric columns");
}

TEST(LockStatErrors, GarbageInATimeColumn) {
    expect_error(replace(std::string(kKamezawa), "16291.34", "16291.3x"), 6,
                 "waittime-max is \"16291.3x\", not a time");
}

TEST(LockStatErrors, GarbageInACountColumn) {
    expect_error(replace(std::string(kKamezawa), "18742433", "187A2433"), 6,
                 "acq-bounces is \"187A2433\", not a count");
}

TEST(LockStatErrors, PointLines) {
    expect_error(replace(std::string(kKamezawa), "638151", "63815x"), 8, "needs a count");
    expect_error(replace(std::string(kKamezawa), "&counter->lock         638151",
                         "&counter->lokc         638151"),
                 8, "names \"&counter->lokc\" but the class above is \"&counter->lock\"");
    expect_error(replace(std::string(kKamezawa),
                         "[<ffffffff81090fd5>] res_counter_charge+0x45/0xe0\n",
                         "[<ffffffff81090fd5 res_counter_charge+0x45/0xe0\n"),
                 8, "without its closing");
    expect_error(std::string(kKamezawa) + "                          --------------\n" +
                     "                          &counter->lock         1          [<ffffffff81>] "
                     "x+0x1/0x2\n",
                 11, "third point list");
    // An empty first list would make the contending points pass for contention points.
    expect_error(replace(std::string(kKamezawa),
                         "                          &counter->lock         638151          "
                         "[<ffffffff81090fd5>] res_counter_charge+0x45/0xe0\n",
                         ""),
                 7, "a dash separator without call-site lines");
    expect_error(std::string(kKamezawa) + "                          --------------\n", 11,
                 "third point list");
    std::string five = std::string(kKamezawa);
    for (int i = 0; i < 4; ++i)
        five += "                          &counter->lock         1          [<ffffffff81090fd5>] "
                "x+0x1/0x2\n";
    expect_error(five, 14, "more than 4 points");
}

TEST(LockStatErrors, UnsupportedVersionAndOrphanNumbers) {
    expect_error(replace(std::string(kKamezawa), "version 0.3", "version 0.2"), 1,
                 "version 0.2 is not supported");
    expect_error(std::string(kKamezawa) + "       967813        4937090\n", 11,
                 "numbers without a class name");
}

TEST(LockStatErrors, WrappedAndQuotedTextReportsTheOriginalLine) {
    // Quoted, with the row wrapped after its third column and garbage on the second piece.
    std::string text = replace(std::string(kKamezawa), "0.52       16291.34      829793.69",
                               "0.52\n16291.34      829793.6x");
    expect_error(quoted(text, "> "), 6, "waittime-total is \"829793.6x\"");
}

TEST(LockStatText, JoinedLinesThatTurnOutToBeProseAreSkipped) {
    // "x: 1" takes "2 3" as its continuation, then is too short to start a table: prose. (Found by
    // the fuzzer: the line was re-read through a view into the text before the join.)
    const std::string long_prose(200, 'p');
    const auto reports = parse_lock_stat("x: 1\n2 3 " + long_prose + "\n" + std::string(kKamezawa));
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_EQ(reports[0].classes.size(), 1u);
}

TEST(LockStatText, SpacesBeforeASideSuffixAreNotPartOfTheName) {
    // Found by the fuzzer: "x  -W:" kept "x  " as the name, which printed back as "x".
    const auto reports =
        parse_lock_stat(replace(std::string(kKamezawa), "&counter->lock:", "&counter->lock  -W:"));
    EXPECT_EQ(reports[0].classes[0].name, "&counter->lock");
}

TEST(LockStatText, NoTableGivesNoReports) {
    EXPECT_TRUE(parse_lock_stat("just prose: with a colon\nand lines\n").empty());
    EXPECT_TRUE(parse_lock_stat("").empty());
}

} // namespace
} // namespace hitmap::locks
