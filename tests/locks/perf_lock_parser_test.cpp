// perf lock fixtures parsed; expected values read by hand from each file's text
// ("1.41 ms" -> 1410000 ns). perf provides no bounces, hold times or lock_stat points: absent.
#include "collector/locks/errors.hpp"
#include "collector/locks/perf_lock_parser.hpp"
#include "tests/locks/fixture_text.hpp"

#include <gtest/gtest.h>

namespace hitmap::locks {
namespace {

using testing::class_counts;
using testing::find_class;

void expect_no_lockstat_only_fields(const LockClassStats& stats) {
    const LockCounters& c = stats.write ? *stats.write : *stats.read;
    EXPECT_EQ(c.con_bounces, std::nullopt);
    EXPECT_EQ(c.acq_bounces, std::nullopt);
    EXPECT_EQ(c.hold, LockTimes{});
    EXPECT_TRUE(stats.contention_points.empty());
    EXPECT_TRUE(stats.contending_points.empty());
}

TEST(PerfLockFixtures, Contention2022FirstExample) {
    LOAD_LOCK_FIXTURE("perf-lock-contention-2022-first-example.txt");
    const auto reports = parse_perf_lock(text);
    ASSERT_EQ(class_counts(reports), std::vector<std::size_t>{9});
    const auto& r = reports[0];
    EXPECT_EQ(r.format, LockFormat::perf_lock_contention);
    EXPECT_EQ(r.caption, "$ perf lock contention");
    EXPECT_TRUE(r.excerpt); // "   ..." after the rows
    const auto& first = r.classes[0];
    EXPECT_EQ(first.name, "update_blocked_averages+0x4c");
    EXPECT_EQ(first.key, LockKey::caller);
    EXPECT_EQ(first.lock_type, "spinlock");
    ASSERT_TRUE(first.write);
    EXPECT_FALSE(first.read);
    EXPECT_EQ(first.write->contentions, 238u);
    EXPECT_EQ(first.write->wait.total_ns, 1410000);
    EXPECT_EQ(first.write->wait.max_ns, 29200);
    EXPECT_EQ(first.write->wait.avg_ns, 5940);
    EXPECT_EQ(first.write->wait.min_ns, std::nullopt); // not in the default fields
    EXPECT_EQ(first.write->acquisitions, std::nullopt);
    expect_no_lockstat_only_fields(first);
    // rwsem:R waits are read-side waits.
    const auto& fault = find_class(r, "do_user_addr_fault+0x1dd");
    ASSERT_TRUE(fault.read);
    EXPECT_FALSE(fault.write);
    EXPECT_EQ(fault.read->wait.total_ns, 902080);
    EXPECT_EQ(find_class(r, "exec_fw_cmd+0x21b").lock_type, "rtmutex");
}

TEST(PerfLockFixtures, ContentionCallerPerfwikiWithStacksAndDebugFooter) {
    LOAD_LOCK_FIXTURE("perf-lock-contention-caller-perfwiki.txt");
    const auto reports = parse_perf_lock(text);
    ASSERT_EQ(class_counts(reports), (std::vector<std::size_t>{7, 3, 1, 1}));
    EXPECT_EQ(reports[0].caption, "# perf lock con -ab sleep 1");
    EXPECT_EQ(find_class(reports[0], "ep_poll_callback+0x2d").read->wait.total_ns, 10310);

    const auto& verbose = reports[1].classes[0];
    EXPECT_EQ(verbose.name, "raw_spin_rq_lock_nested+0x1b");
    ASSERT_EQ(verbose.stack.size(), 8u);
    EXPECT_EQ(verbose.stack[0], (StackFrame{0xffffffff9d0407c0, "_raw_spin_lock+0x30"}));
    EXPECT_EQ(verbose.stack[7], (StackFrame{0xffffffff9e673da2, "arch_call_rest_init+0xa"}));

    EXPECT_EQ(reports[2].caption, "# perf lock con -ab -L ffff9f88c0248000 sleep 1");
    const auto& alien = reports[2].classes[0];
    EXPECT_EQ(alien.write->contentions, 39412u);
    EXPECT_EQ(alien.write->wait.total_ns, 1580000000);
    EXPECT_EQ(alien.write->wait.max_ns, 123500);
    EXPECT_EQ(reports[3].classes[0].name, "tick_irq_enter+0xf0");
}

TEST(PerfLockFixtures, ContentionTaskPerfwikiIncludingOwners) {
    LOAD_LOCK_FIXTURE("perf-lock-contention-task-perfwiki.txt");
    const auto reports = parse_perf_lock(text);
    ASSERT_EQ(class_counts(reports), (std::vector<std::size_t>{8, 2, 3}));
    const auto& kworker = find_class(reports[0], "kworker/4:0");
    EXPECT_EQ(kworker.key, LockKey::task);
    EXPECT_EQ(kworker.pid, 54858);
    EXPECT_EQ(kworker.write->wait.total_ns, 124700);
    EXPECT_EQ(find_class(reports[0], "kworker/4:1").write->wait.max_ns, 900);
    const auto& unknown = find_class(reports[2], "Unknown");
    EXPECT_EQ(unknown.pid, -1);
    EXPECT_EQ(unknown.write->contentions, 146u);
    EXPECT_EQ(unknown.write->wait.avg_ns, 434);
}

TEST(PerfLockFixtures, ContentionLockAddressPerfwiki) {
    LOAD_LOCK_FIXTURE("perf-lock-contention-lockaddr-perfwiki.txt");
    const auto reports = parse_perf_lock(text);
    ASSERT_EQ(class_counts(reports), std::vector<std::size_t>{12});
    const auto& unnamed = reports[0].classes[0];
    EXPECT_EQ(unnamed.key, LockKey::lock_address);
    EXPECT_EQ(unnamed.lock_address, 0xffffa64fdb3f11b8u);
    EXPECT_EQ(unnamed.name, "ffffa64fdb3f11b8"); // " (mutex)": no symbol
    EXPECT_EQ(unnamed.lock_type, "mutex");
    EXPECT_EQ(unnamed.write->wait.total_ns, 2570000);
    const auto& mmap = reports[0].classes[3];
    EXPECT_EQ(mmap.name, "mmap_lock");
    EXPECT_EQ(mmap.lock_type, "rwsem");
    EXPECT_EQ(mmap.lock_address, 0xffff9f88cf26a660u);
    EXPECT_EQ(mmap.write->wait.max_ns, 740);
    EXPECT_EQ(mmap.write->wait.avg_ns, 273);
    EXPECT_EQ(find_class(reports[0], "kernfs_open_file_mutex").write->wait.total_ns, 240);
}

TEST(PerfLockFixtures, ContentionCgroupPerfwiki) {
    LOAD_LOCK_FIXTURE("perf-lock-contention-cgroup-perfwiki.txt");
    const auto reports = parse_perf_lock(text);
    ASSERT_EQ(class_counts(reports), std::vector<std::size_t>{2});
    const auto& root = find_class(reports[0], "/");
    EXPECT_EQ(root.key, LockKey::cgroup);
    EXPECT_EQ(root.write->contentions, 214u);
    EXPECT_EQ(root.write->wait.total_ns, 9240000);
    EXPECT_EQ(find_class(reports[0], "/sys").write->wait.avg_ns, 2000);
}

TEST(PerfLockFixtures, ContentionCsv2023ThreeOutputs) {
    LOAD_LOCK_FIXTURE("perf-lock-contention-csv-2023.txt");
    const auto reports = parse_perf_lock(text);
    ASSERT_EQ(class_counts(reports), (std::vector<std::size_t>{9, 6, 10}));
    for (const auto& r : reports)
        EXPECT_EQ(r.format, LockFormat::perf_lock_contention_csv);
    // CSV times are raw nanoseconds.
    const auto& first = reports[0].classes[0];
    EXPECT_EQ(first.name, "process_one_work+0x1f0");
    EXPECT_EQ(first.lock_type, "spinlock");
    EXPECT_EQ(first.write->contentions, 19u);
    EXPECT_EQ(first.write->wait.total_ns, 194232);
    EXPECT_EQ(first.write->wait.max_ns, 21415);
    EXPECT_EQ(first.write->wait.avg_ns, 10222);
    EXPECT_EQ(reports[0].classes[1].read->wait.total_ns, 162748); // rwsem:R

    // -v -F wait_total: one field, a stacktrace column cut with "..." by the mail's author.
    const auto& verbose = reports[1].classes[0];
    EXPECT_EQ(verbose.write->wait.total_ns, 37134);
    EXPECT_EQ(verbose.write->contentions, std::nullopt);
    EXPECT_EQ(verbose.stack,
              (std::vector<StackFrame>{{0xffffffff9d0401e4, "_raw_spin_lock_irqsave+0x44"},
                                       {0xffffffff9c738114, "rcu_core+0xd4"}}));
    EXPECT_TRUE(reports[1].excerpt);

    const auto& rq = reports[2].classes[2];
    EXPECT_EQ(rq.name, "rq_lock");
    EXPECT_EQ(rq.lock_address, 0xffff9dcc7f730e00u);
    EXPECT_EQ(rq.write->wait.total_ns, 6472);
    EXPECT_EQ(reports[2].classes[0].name, "ffff9dcc9f7d60d0"); // empty symbol column
}

TEST(PerfLockFixtures, ContentionTraceiter2024SecondsAndMilliseconds) {
    LOAD_LOCK_FIXTURE("perf-lock-contention-traceiter-2024.txt");
    const auto reports = parse_perf_lock(text);
    ASSERT_EQ(class_counts(reports), std::vector<std::size_t>{7});
    const auto& first = reports[0].classes[0];
    EXPECT_EQ(first.write->contentions, 8u);
    EXPECT_EQ(first.write->wait.total_ns, 2330000000);
    EXPECT_EQ(first.write->wait.max_ns, 2280000000);
    EXPECT_EQ(first.write->wait.avg_ns, 291180000);
}

TEST(PerfLockFixtures, ContentionFioHoursQuotedFourLevels) {
    LOAD_LOCK_FIXTURE("perf-lock-contention-fio-hours-quoted-2024.txt");
    const auto reports = parse_perf_lock(text);
    ASSERT_EQ(class_counts(reports), std::vector<std::size_t>{2});
    const auto& wake = reports[0].classes[0];
    EXPECT_EQ(wake.name, "rwsem_wake.isra.0+0x42");
    EXPECT_EQ(wake.write->contentions, 1337359017u);       // 10 digits fill the %10llu column
    EXPECT_EQ(wake.write->wait.total_ns, 232884000000000); // 64.69 h
    EXPECT_EQ(wake.stack.size(), 8u);
    const auto& seek = reports[0].classes[1];
    EXPECT_EQ(seek.lock_type, "rwsem:W");
    EXPECT_EQ(seek.write->wait.max_ns, 1980000000);
    EXPECT_EQ(seek.write->wait.avg_ns, 86950000);
    EXPECT_EQ(seek.stack.back(),
              (StackFrame{0xffffffff9040012b, "entry_SYSCALL_64_after_hwframe+0x76"}));
}

TEST(PerfLockFixtures, ReportCombine2022RawNanoseconds) {
    LOAD_LOCK_FIXTURE("perf-lock-report-combine-2022.txt");
    const auto reports = parse_perf_lock(text);
    ASSERT_EQ(class_counts(reports), (std::vector<std::size_t>{24, 14}));
    EXPECT_EQ(reports[0].format, LockFormat::perf_lock_report);
    EXPECT_TRUE(reports[0].excerpt);
    const auto& lruvec = find_class(reports[0], "&lruvec->lru_loc...");
    EXPECT_EQ(lruvec.key, LockKey::lock_name);
    EXPECT_EQ(lruvec.write->acquisitions, 747u);
    EXPECT_EQ(lruvec.write->contentions, 5u);
    EXPECT_EQ(lruvec.write->wait.avg_ns, 11254);
    EXPECT_EQ(lruvec.write->wait.total_ns, 56272);
    EXPECT_EQ(lruvec.write->wait.max_ns, 18317);
    EXPECT_EQ(lruvec.write->wait.min_ns, 1412);
    EXPECT_EQ(find_class(reports[1], "(null)").write->acquisitions, 1878u);
    EXPECT_EQ(find_class(reports[1], "ptlock_ptr(page)").write->wait.total_ns, 1402);
}

TEST(PerfLockFixtures, ReportThreadsDocFieldSubset) {
    LOAD_LOCK_FIXTURE("perf-lock-report-threads-doc.txt");
    const auto reports = parse_perf_lock(text);
    ASSERT_EQ(class_counts(reports), std::vector<std::size_t>{12});
    const auto& perf = reports[0].classes[0];
    EXPECT_EQ(perf.name, "perf");
    EXPECT_EQ(perf.write->acquisitions, 240569u);
    EXPECT_EQ(perf.write->contentions, 9u);
    EXPECT_EQ(perf.write->wait.avg_ns, 5784);
    EXPECT_EQ(perf.write->wait.total_ns, std::nullopt); // -F acquired,contended,avg_wait
    EXPECT_EQ(reports[0].classes[2].name, ":15789");
}

TEST(PerfLockFixtures, ReportUnits2022BeforeAndAfter) {
    LOAD_LOCK_FIXTURE("perf-lock-report-units-2022.txt");
    const auto reports = parse_perf_lock(text);
    ASSERT_EQ(class_counts(reports), (std::vector<std::size_t>{6, 6}));
    EXPECT_EQ(reports[1].caption, "After:");
    const auto& before = find_class(reports[0], "jiffies_lock");
    const auto& after = find_class(reports[1], "jiffies_lock");
    EXPECT_EQ(before.write->wait.total_ns, 88908);
    EXPECT_EQ(after.write->wait.total_ns, 88910); // "88.91 us"
    EXPECT_EQ(after.write->wait.min_ns, 692);     // "692 ns"
    EXPECT_EQ(after.write->wait.avg_ns, 2780);
    EXPECT_EQ(after.write->acquisitions, 433u);
}

void expect_perf_error(const std::string& text, std::size_t line, std::string_view reason_part) {
    try {
        parse_perf_lock(text);
        ADD_FAILURE() << "no error";
    } catch (const LockParseError& e) {
        EXPECT_EQ(e.line(), line) << e.what();
        EXPECT_NE(e.reason().find(reason_part), std::string::npos) << e.what();
    }
}

TEST(PerfLockErrors, BadRowsNameTheirLine) {
    const std::string header =
        "# perf lock con -ab sleep 1\n contended   total wait     max wait     avg wait         "
        "type   caller\n\n";
    expect_perf_error(
        header + "         2     27.49 xs     15.86 us     13.74 us     spinlock   a+0x1\n", 4,
        "total wait is \"27.49 xs\"");
    expect_perf_error(header + "         2     27.49 us     15.86 us\n", 4, "row ends before");
    expect_perf_error(header + "         2     27.49 us     15.86 us     13.74 us     spinlock\n",
                      4, "caller");
    expect_perf_error(header + "\t\t\t0xffffffff9d0407c0  _raw_spin_lock+0x30\n", 4,
                      "before any row");
    expect_perf_error(
        "# output: contended, total wait, type, caller\n19, 1942x2, spinlock, f+0x1\n", 2,
        "total wait is \"1942x2\", not nanoseconds");
    expect_perf_error("# output: contended, total wait, type, caller\n19, 194232\n", 2,
                      "CSV row has 2 of the 4 columns");
    expect_perf_error("# output: contended; total wait\n", 1, "unknown columns");
    expect_perf_error("  Name   acquired  contended\n  foo  12  x3\n", 2, "contended is \"x3\"");
}

// A row with total and max wait swapped was stored as is: the longest wait of a lock can exceed
// neither all its waits together nor be shorter than their mean or the shortest of them.
TEST(PerfLockErrors, ImpossibleWaitsAreRefusedAtTheirLine) {
    const std::string header =
        "# perf lock con -ab sleep 1\n contended   total wait     max wait     avg wait         "
        "type   caller\n\n";
    expect_perf_error(header + "       238     29.20 us      1.41 ms      5.94 us     spinlock   "
                               "update_blocked_averages+0x4c\n",
                      4,
                      "max wait 1410000 ns is more than total wait 29200 ns, which no lock can "
                      "have (columns swapped?)");
    expect_perf_error(header + "       238      1.41 ms      5.94 us     29.20 us     spinlock   "
                               "update_blocked_averages+0x4c\n",
                      4, "avg wait 29200 ns is more than max wait 5940 ns");
    expect_perf_error("# output: contended, total wait, max wait, avg wait, type, caller\n"
                      "19, 21415, 194232, 10222, spinlock, process_one_work+0x1f0\n",
                      2, "max wait 194232 ns is more than total wait 21415 ns");
    expect_perf_error("                Name   acquired  contended   avg wait (ns) total wait (ns) "
                      "  max wait (ns)   min wait (ns)\n\n"
                      "        jiffies_lock        433         32            2778           88908 "
                      "            692           13570\n",
                      3, "min wait 13570 ns is more than avg wait 2778 ns");
    // Equal times are possible: one wait is its own mean, longest, shortest and total.
    EXPECT_EQ(class_counts(parse_perf_lock(header + "         1    902.08 us    902.08 us    "
                                                    "902.08 us      rwsem:R   f+0x1d\n")),
              std::vector<std::size_t>{1});
}

TEST(PerfLockText, AnotherCsvSeparator) {
    const auto reports =
        parse_perf_lock("# output: contended; total wait; pid; comm\n3; 900; 42; my task; x\n");
    ASSERT_EQ(class_counts(reports), std::vector<std::size_t>{1});
    EXPECT_EQ(reports[0].classes[0].pid, 42);
    EXPECT_EQ(reports[0].classes[0].name, "my task; x"); // the last column keeps the rest
    EXPECT_EQ(reports[0].classes[0].write->wait.total_ns, 900);
}

} // namespace
} // namespace hitmap::locks
