// `--c2c perf` without a PMU: perf is replaced by a shell script that plays its part
// (fake_perf.hpp: the probe's refusal, perf record's control-fifo handshake and SIGINT ending,
// perf c2c report's text), so the process handling, the refusals before anything is stored, the
// run's tables with its objects placed at their addresses and the cleanup of perf's files are
// all exercised.
#include "collector/run/perf_c2c.hpp"
#include "collector/run/progress.hpp"
#include "collector/run/run_executor.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/database.hpp"
#include "engine/layout/layout_registry.hpp"
#include "tests/cli/fake_perf.hpp"
#include "tests/support/read_file.hpp"
#include "tests/support/scoped_tmpdir.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <random>
#include <unistd.h>

namespace hitmap::testing {
namespace {

using namespace collector;
using ::testing::HasSubstr;
using ::testing::StartsWith;
namespace fs = std::filesystem;

// perf c2c report --stdio of perf 6.1.187 for a recording without memory samples (this VM:
// cpu-clock data), verbatim: its LLC-miss shares are "-nan%".
constexpr const char* kEmptyReport = R"(=================================================
            Trace Event Information              
=================================================
  Total records                     :          0
  Locked Load/Store Operations      :          0
  Load Operations                   :          0
  Loads - uncacheable               :          0
  Loads - IO                        :          0
  Loads - Miss                      :          0
  Loads - no mapping                :          0
  Load Fill Buffer Hit              :          0
  Load L1D hit                      :          0
  Load L2D hit                      :          0
  Load LLC hit                      :          0
  Load Local HITM                   :          0
  Load Remote HITM                  :          0
  Load Remote HIT                   :          0
  Load Local DRAM                   :          0
  Load Remote DRAM                  :          0
  Load MESI State Exclusive         :          0
  Load MESI State Shared            :          0
  Load LLC Misses                   :          0
  Load access blocked by data       :          0
  Load access blocked by address    :          0
  Load HIT Local Peer               :          0
  Load HIT Remote Peer              :          0
  LLC Misses to Local DRAM          :       -nan%
  LLC Misses to Remote DRAM         :       -nan%
  LLC Misses to Remote cache (HIT)  :       -nan%
  LLC Misses to Remote cache (HITM) :       -nan%
  Store Operations                  :          0
  Store - uncacheable               :          0
  Store - no mapping                :          0
  Store L1D Hit                     :          0
  Store L1D Miss                    :          0
  Store No available memory level   :          0
  No Page Map Rejects               :          0
  Unable to parse data source       :          0

=================================================
    Global Shared Cache Line Event Information   
=================================================
  Total Shared Cache Lines          :          0
  Load HITs on shared lines         :          0
  Fill Buffer Hits on shared lines  :          0
  L1D hits on shared lines          :          0
  L2D hits on shared lines          :          0
  LLC hits on shared lines          :          0
  Load hits on peer cache or nodes  :          0
  Locked Access on shared lines     :          0
  Blocked Access on shared lines    :          0
  Store HITs on shared lines        :          0
  Store L1D hits on shared lines    :          0
  Store No available memory level   :          0
  Total Merged records              :          0

=================================================
                 c2c details                     
=================================================
  Events                            : cpu-clock
                                    : dummy:HG
  Cachelines sort on                : Total HITMs
  Cacheline data grouping           : offset,iaddr

=================================================
           Shared Data Cache Line Table          
=================================================
#
#        ----------- Cacheline ----------      Tot  ------- Load Hitm -------    Total    Total    Total  --------- Stores --------  ----- Core Load Hit -----  - LLC Load Hit --  - RMT Load Hit --  --- Load Dram ----
# Index             Address  Node  PA cnt     Hitm    Total  LclHitm  RmtHitm  records    Loads   Stores    L1Hit   L1Miss      N/A       FB       L1       L2    LclHit  LclHitm    RmtHit  RmtHitm       Lcl       Rmt
# .....  ..................  ....  ......  .......  .......  .......  .......  .......  .......  .......  .......  .......  .......  .......  .......  .......  ........  .......  ........  .......  ........  ........
#

=================================================
      Shared Cache Line Distribution Pareto      
=================================================
#
)";

// Each test gets its own temp dir, which is also TMPDIR: perf's scratch files land there, so
// what is left after a recording can be seen.
class PerfC2cTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::random_device rd;
        dir_ = fs::temp_directory_path() / ("hitmap-perf-c2c-test-" + std::to_string(rd()));
        tmpdir_.emplace(dir_ / "tmp");
    }
    void TearDown() override {
        tmpdir_.reset();
        fs::remove_all(dir_);
    }

    PerfCommand fake(const FakePerf& f) const {
        write_fake_perf(f, dir_ / "perf");
        return PerfCommand{(dir_ / "perf").string()};
    }

    // Nothing of perf's is left behind in TMPDIR.
    bool scratch_empty() const { return fs::is_empty(dir_ / "tmp"); }

    fs::path dir_;
    std::optional<ScopedTmpdir> tmpdir_;
};

TEST(PerfFailureReason, PerfsOwnWordsOnOneLine) {
    EXPECT_EQ(perf_failure_reason("failed: memory events not supported\n"),
              "memory events not supported");
    EXPECT_EQ(perf_failure_reason(
                  "Events disabled\nError:\nThe sys_perf_event_open() syscall returned with 22 "
                  "(Invalid argument) for event (cpu/mem-loads,ldlat=30/P).\n/bin/dmesg | grep -i "
                  "perf may provide additional information.\n"),
              "The sys_perf_event_open() syscall returned with 22 (Invalid argument) for event "
              "(cpu/mem-loads,ldlat=30/P).");
    EXPECT_EQ(perf_failure_reason("Error: no such process\n"), "no such process");
    EXPECT_EQ(
        perf_failure_reason("[ perf record: Woken up 1 times to write data ]\r\n"
                            "WARNING: perf not found for kernel 6.1.0-9\n\n  You may need..."),
        "WARNING: perf not found for kernel 6.1.0-9");
    EXPECT_EQ(perf_failure_reason(""), "no message");
}

TEST_F(PerfC2cTest, ProbeRefusesWithPerfsReasonAndExitStatus) {
    FakePerf f;
    f.probe = "echo 'failed: memory events not supported' >&2; exit 255";
    try {
        probe_perf(fake(f), PerfRecorder::c2c);
        FAIL() << "the probe must refuse";
    } catch (const PerfFailed& e) {
        EXPECT_STREQ(e.what(),
                     "--c2c perf: perf c2c record failed: memory events not supported (exit 255)");
    }
    EXPECT_TRUE(scratch_empty());
    EXPECT_NO_THROW(probe_perf(fake(FakePerf{}), PerfRecorder::c2c));
    EXPECT_TRUE(scratch_empty());
}

TEST_F(PerfC2cTest, MissingPerfIsItsOwnError) {
    try {
        probe_perf(PerfCommand{(dir_ / "no-such-dir" / "perf").string()}, PerfRecorder::c2c);
        FAIL() << "a missing program must refuse";
    } catch (const PerfToolMissing& e) {
        EXPECT_THAT(e.what(), HasSubstr("no-such-dir/perf: No such file or directory"));
    }
    try {
        probe_perf(PerfCommand{"hitmap-test-no-such-perf"}, PerfRecorder::c2c);
        FAIL() << "a program not in PATH must refuse";
    } catch (const PerfToolMissing& e) {
        EXPECT_STREQ(e.what(), "--c2c perf: hitmap-test-no-such-perf not found in PATH (Debian: "
                               "apt-get install linux-perf)");
    }
    EXPECT_THROW(PerfC2cRecording{PerfCommand{"hitmap-test-no-such-perf"}}, PerfToolMissing);
    EXPECT_TRUE(scratch_empty());
}

TEST_F(PerfC2cTest, RecordsThisProcessEnabledThroughTheControlFifoAndStopsOnSigint) {
    std::optional<std::string> text;
    {
        PerfC2cRecording recording(fake(FakePerf{}));
        EXPECT_FALSE(scratch_empty()); // the fifos and perf's data
        recording.stop();
        const std::atomic<bool> cancel{false};
        text = recording.report(cancel);
    }
    // The fake's "data" is the argv perf c2c record was given.
    ASSERT_TRUE(text);
    EXPECT_THAT(*text, StartsWith("c2c\nrecord\n--output="));
    EXPECT_THAT(*text, HasSubstr(fmt::format("\n--pid={}\n", ::getpid())));
    EXPECT_THAT(*text, HasSubstr("\n--delay=-1\n--control=fifo:"));
    EXPECT_THAT(*text, HasSubstr("\n--no-buildid-cache\n"));
    EXPECT_TRUE(scratch_empty());
}

TEST_F(PerfC2cTest, PerfThatFailsWhileRecordingGivesItsReason) {
    FakePerf f;
    f.before_ack = "trap '' INT"; // it fails on its own, before stop()'s SIGINT could end it
    f.after_ack = "echo 'Error:' >&2; echo 'failed to mmap with 12 (Cannot allocate memory)' >&2; "
                  "exit 1";
    // perf fails right after acknowledging: whether the recording's start already sees it exit
    // or stop() does depends on how the machine schedules the two processes (on a busy one
    // the start saw it, 1 make test in 2), so either may report it; what must hold is that
    // perf's reason is reported and nothing is taken for a recording.
    try {
        PerfC2cRecording recording(fake(f));
        recording.stop();
        FAIL() << "perf's failure must be reported";
    } catch (const PerfFailed& e) {
        EXPECT_STREQ(e.what(), "--c2c perf: perf c2c record failed: failed to mmap with 12 (Cannot "
                               "allocate memory) (exit 1)");
    }
}

TEST_F(PerfC2cTest, PerfThatExitsBeforeAcknowledgingRefusesAtOnce) {
    FakePerf f;
    f.before_ack = "echo 'Error:' >&2; echo 'no permission to attach' >&2; exit 2";
    try {
        PerfC2cRecording recording(fake(f));
        FAIL() << "the recording must not start";
    } catch (const PerfFailed& e) {
        EXPECT_STREQ(e.what(),
                     "--c2c perf: perf c2c record failed: no permission to attach (exit 2)");
    }
    EXPECT_TRUE(scratch_empty());
}

TEST_F(PerfC2cTest, BoundedWaitsForAnAckAndForTheEnd) {
    FakePerf silent;
    silent.before_ack = "while :; do sleep 0.05; done";
    // The fake never acks: returning at all is the bounded wait (no elapsed time is asserted,
    // which a loaded VM could stretch).
    EXPECT_THROW((PerfC2cRecording{fake(silent), std::chrono::milliseconds(300)}), PerfFailed);
    EXPECT_TRUE(scratch_empty()); // the silent perf was killed, its files removed

    FakePerf deaf;
    deaf.on_sigint = "trap '' INT";
    PerfC2cRecording recording(fake(deaf));
    try {
        recording.stop(std::chrono::milliseconds(300));
        FAIL() << "a perf that ignores SIGINT must not be waited for forever";
    } catch (const PerfFailed& e) {
        EXPECT_THAT(e.what(), HasSubstr("did not finish within 0.3 s of SIGINT"));
    }
}

TEST_F(PerfC2cTest, CancelStopsTheReport) {
    FakePerf slow;
    slow.report = "while :; do sleep 0.05; done";
    PerfC2cRecording recording(fake(slow));
    recording.stop();
    const std::atomic<bool> cancel{true};
    // The fake report never ends: returning at all is the cancellation.
    EXPECT_FALSE(recording.report(cancel));
}

TEST_F(PerfC2cTest, FailedReportGivesPerfsReason) {
    FakePerf f;
    f.report = "echo 'Error:' >&2; echo 'The perf.data data has no samples!' >&2; exit 1";
    PerfC2cRecording recording(fake(f));
    recording.stop();
    const std::atomic<bool> cancel{false};
    try {
        recording.report(cancel);
        FAIL() << "report must refuse";
    } catch (const PerfFailed& e) {
        EXPECT_STREQ(e.what(), "--c2c perf: perf c2c report failed: The perf.data data has no "
                               "samples! (exit 1)");
    }
}

// A report built around two objects of a run: page_counter v6.0 at 0x7f0000010000 (two lines
// reported: usage at +0x0, elow at +0x40), another at 0x7f0000020000 (no line), one at address
// 0 (never in memory), and a line of the allocator's outside every object.
perfc2c::C2cReport report_of_lines(const std::vector<std::uint64_t>& addresses) {
    perfc2c::C2cReport r;
    r.trace.push_back({1, "Total records", 60, false});
    std::uint64_t index = 0;
    for (const std::uint64_t address : addresses) {
        perfc2c::SharedLine l;
        l.index = index;
        l.address = address;
        l.lcl_hitm = 10;
        l.loads = 15;
        l.stores = 5;
        l.store_l1_hit = 5;
        r.lines.push_back(l);
        perfc2c::ParetoLine p;
        p.index = index++;
        p.address = address;
        p.lcl = 10;
        p.store_l1_hit = 5;
        perfc2c::ParetoRow row;
        row.offset = 0;
        row.lcl_percent = 100;
        row.store_l1_hit_percent = 100;
        row.records = 20;
        row.symbol = "[.] page_counter_try_charge";
        row.object = "hitmap-collect";
        p.rows.push_back(row);
        r.pareto.push_back(p);
    }
    return r;
}

TEST(PerfC2cTables, RunObjectsNameTheLinesTheyCoverAndStayWithoutLines) {
    const engine::Layout* v60 = engine::find_layout("page_counter", "v6.0");
    ASSERT_NE(v60, nullptr);
    engine::WorkloadResult result;
    result.ops = 1000;
    result.ops_per_thread = {600, 400};
    result.objects.add("root/memory", *v60, 0, 0x7f0000010000);
    result.objects.add("child/memory", *v60, 0, 0x7f0000020000);
    result.objects.add("unplaced", *v60, 0, 0);

    const perfc2c::ImportedC2c imported =
        perf_c2c_tables(report_of_lines({0x7f0000010000, 0x7f0000010040, 0x55550000}), result);
    ASSERT_TRUE(imported.data);
    const store::C2cData& d = *imported.data;
    ASSERT_EQ(d.objects.size(), 3u);
    EXPECT_EQ(d.objects[0].name, "root/memory");
    EXPECT_EQ(d.objects[1].name, "child/memory"); // kept, though perf saw nothing on it
    EXPECT_EQ(d.objects[2].name, "0x55550000");   // the allocator's line

    ASSERT_EQ(d.result.lines.size(), 3u);
    EXPECT_EQ(d.result.lines[0].line.object, 0u);
    EXPECT_EQ(d.result.lines[0].line.index, 0u);
    EXPECT_EQ(d.result.lines[1].line.object, 0u);
    EXPECT_EQ(d.result.lines[1].line.index, 1u);
    EXPECT_EQ(d.result.lines[2].line.object, 2u);
    ASSERT_EQ(d.result.fields.size(), 3u);
    EXPECT_EQ(d.result.fields[0].field_name, "usage");
    EXPECT_EQ(d.result.fields[1].field_name, "elow");
    EXPECT_EQ(d.result.fields[2].field_name, "+0x0");
    EXPECT_EQ(d.result.totals.load_hitm, 30u);

    EXPECT_EQ(d.trace.format, store::kPerfC2cReportFormat);
    EXPECT_EQ(d.trace.threads, 2u);
    EXPECT_EQ(d.trace.traced_ops, 1000u);
    EXPECT_EQ(d.trace.records, 60u);
    // perf's report has no store classes or cycles; the run counted its own operations.
    EXPECT_EQ(d.traced_ops(), 1000u);
    EXPECT_EQ(d.dropped_records(), std::nullopt);
    EXPECT_FALSE(d.trace.known.store_hitm);
    EXPECT_FALSE(d.trace.known.stall_cycles);
    ASSERT_FALSE(imported.metrics.empty());
    for (const store::Metric& m : imported.metrics)
        EXPECT_EQ(m.source, store::Source::measured) << m.name;
    ASSERT_EQ(imported.code.size(), 3u);
    EXPECT_EQ(imported.code[0]["rows"][0]["symbol"], "[.] page_counter_try_charge");
}

TEST(PerfC2cTables, NoLinesLeavesEveryObjectWithoutLines) {
    const engine::Layout* v60 = engine::find_layout("page_counter", "v6.0");
    ASSERT_NE(v60, nullptr);
    engine::WorkloadResult result;
    result.objects.add("root/memory", *v60, 0, 0x7f0000010000);
    const perfc2c::ImportedC2c imported =
        perf_c2c_tables(read_perf_c2c_report(kEmptyReport), result);
    ASSERT_TRUE(imported.data);
    ASSERT_EQ(imported.data->objects.size(), 1u);
    EXPECT_TRUE(imported.data->result.lines.empty());
}

TEST(PerfC2cTables, UnreadableReportSaysSo) {
    try {
        read_perf_c2c_report("usage: perf c2c report\n");
        FAIL() << "not a report";
    } catch (const PerfC2cReportUnreadable& e) {
        EXPECT_THAT(e.what(), StartsWith("--c2c perf: perf c2c report printed no report: "));
    }
}

RunRequest perf_request(const PerfCommand& perf) {
    RunRequest r;
    r.workload = "page-counter-charge";
    r.variants = {"v6.0"};
    r.threads = {1};
    r.stop.iterations = 2000;
    r.c2c.source = C2cMode::perf;
    r.c2c.perf = perf;
    return r;
}

TEST_F(PerfC2cTest, ValidateRefusesBeforeAnyRunIsStored) {
    FakePerf f;
    f.probe = "echo 'failed: memory events not supported' >&2; exit 255";
    try {
        RunExecutor::validate(perf_request(fake(f)));
        FAIL() << "validate must refuse";
    } catch (const PerfFailed& e) {
        EXPECT_STREQ(e.what(),
                     "--c2c perf: perf c2c record failed: memory events not supported (exit 255)");
    }
}

TEST_F(PerfC2cTest, RunStoresPerfsTablesWithTheRunsObjects) {
    std::ofstream(dir_ / "report.txt") << kEmptyReport;
    FakePerf f;
    f.report = "cat '" + (dir_ / "report.txt").string() + "'";
    std::int64_t run_id = 0;
    {
        store::Database db = store::Database::open(dir_ / "perf.db");
        Progress progress(ProgressStyle::none);
        RunExecutor executor(db, progress);
        const auto summaries = executor.execute(RunExecutor::validate(perf_request(fake(f))));
        ASSERT_EQ(summaries.size(), 1u);
        ASSERT_TRUE(summaries[0].ok) << summaries[0].error;
        run_id = summaries[0].run_id;
    }
    EXPECT_TRUE(scratch_empty());
    store::Database db = store::Database::open(dir_ / "perf.db");
    const auto run = db.run(run_id);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->status, store::RunStatus::complete);
    EXPECT_EQ(run->c2c_source, store::C2cSource::perf);
    EXPECT_EQ(run->source, store::Source::measured);
    EXPECT_THAT(run->c2c_reason.value_or(""), StartsWith("--c2c perf: perf c2c record"));
    EXPECT_THAT(run->params_json, HasSubstr("\"perf_c2c_code\":[]"));
    const auto c2c = store::read_c2c(db, run_id);
    ASSERT_TRUE(c2c);
    EXPECT_EQ(c2c->trace.format, store::kPerfC2cReportFormat);
    EXPECT_EQ(c2c->trace.traced_ops, 2000u);
    // The workload's objects under their names (the page counters live in the mem_cgroups),
    // without lines.
    EXPECT_TRUE(std::any_of(c2c->objects.begin(), c2c->objects.end(), [](const auto& o) {
        return o.name == "top/mid/leaf" && o.layout.type->name == "mem_cgroup";
    }));
    EXPECT_TRUE(c2c->result.lines.empty());
    bool records = false;
    for (const store::Metric& m : db.metrics(run_id))
        if (m.name == "perf_c2c.trace.total_records") {
            records = true;
            EXPECT_EQ(m.value, 0.0);
            EXPECT_EQ(m.source, store::Source::measured);
        } else {
            EXPECT_THAT(m.name, ::testing::Not(HasSubstr("llc_misses_to"))); // -nan%: no value
        }
    EXPECT_TRUE(records);
}

TEST_F(PerfC2cTest, PerfFailingDuringARunFailsThatRunWithItsReason) {
    FakePerf f;
    f.before_ack = "trap '' INT";
    f.after_ack = "echo 'Error:' >&2; echo 'lost the target' >&2; exit 1";
    store::Database db = store::Database::open(dir_ / "perf.db");
    Progress progress(ProgressStyle::none);
    RunExecutor executor(db, progress);
    const auto summaries = executor.execute(RunExecutor::validate(perf_request(fake(f))));
    ASSERT_EQ(summaries.size(), 1u);
    EXPECT_FALSE(summaries[0].ok);
    EXPECT_EQ(summaries[0].error, "--c2c perf: perf c2c record failed: lost the target (exit 1)");
    const auto run = db.run(summaries[0].run_id);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->status, store::RunStatus::failed);
    EXPECT_FALSE(store::read_c2c(db, summaries[0].run_id));
    EXPECT_TRUE(scratch_empty());
}

} // namespace
} // namespace hitmap::testing
