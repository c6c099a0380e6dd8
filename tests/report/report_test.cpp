// The report library's formatters on hand-made values: what each output does with text from
// outside, unknown values, and where a report file may be written.
#include "collector/analysis/origin.hpp"
#include "collector/report/output_text.hpp"
#include "collector/report/report_csv.hpp"
#include "collector/report/report_file.hpp"
#include "collector/report/report_origin.hpp"
#include "collector/report/run_summary.hpp"

#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace hitmap::report {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
    std::ifstream in(path);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

class ReportFileTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("hitmap-report-test-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path dir_;
};

TEST(OutputText, MarkdownEscapesWhatWouldBecomeSyntax) {
    EXPECT_EQ(markdown_text("a|b"), "a\\|b");
    EXPECT_EQ(markdown_text("*x*_y_`z`"), "\\*x\\*\\_y\\_\\`z\\`");
    EXPECT_EQ(markdown_text("[l](u)"), "\\[l\\](u)");
    EXPECT_EQ(markdown_text("<b>&"), "&lt;b&gt;&amp;");
    EXPECT_EQ(markdown_text("back\\slash"), "back\\\\slash");
    // The control character's escape shows as written: its backslash is escaped too.
    EXPECT_EQ(markdown_text("esc\x1b[31m"), "esc\\\\x1b\\[31m");
}

TEST(OutputText, HtmlEscapesContentAndAttributes) {
    EXPECT_EQ(html_text("<script>\"x\" & 'y'</script>"),
              "&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/script&gt;");
    EXPECT_EQ(html_text("cr\r"), "cr\\r");
}

TEST(OutputText, RatesForPeople) {
    EXPECT_EQ(rate_text(47361868), "47.36 M");
    EXPECT_EQ(rate_text(16570), "16.57 k");
    EXPECT_EQ(rate_text(950), "950");
    EXPECT_EQ(rate_text(0), "0");
}

TEST(ReportCsv, QuotesWhereNeededAndLeavesUnknownEmpty) {
    ReportTable t{
        "runs", "Runs", {TableColumn("Name"), TableColumn("Ops"), TableColumn("Share")}, {}};
    t.rows.push_back({std::string("a,b"), std::int64_t{12}, 0.125});
    t.rows.push_back({std::string("say \"hi\""), std::monostate{}, std::monostate{}});
    t.rows.push_back({std::string("line\nbreak"), std::int64_t{0}, 0.0});
    EXPECT_EQ(table_csv(t), "Name,Ops,Share\r\n"
                            "\"a,b\",12,0.125\r\n"
                            "\"say \"\"hi\"\"\",,\r\n"
                            "line\\nbreak,0,0\r\n");
}

TEST(RunSummary, UnknownsShowAsDashNeverZero) {
    store::RunRecord run;
    run.id = 7;
    run.workload = "import:lockstat";
    run.variant = "lock\x1b[2Jstat.txt#1";
    run.source = store::Source::imported;
    EXPECT_EQ(run_title(run),
              "run 7: import:lockstat lock\\x1b[2Jstat.txt#1 x– threads, – s, – ops (imported)");
    const nlohmann::json j = run_json(run);
    EXPECT_TRUE(j["threads"].is_null());
    EXPECT_TRUE(j["ops_per_s"].is_null());
    EXPECT_EQ(j["source"], "imported");
    run.threads = 2;
    run.duration_s = 1.0;
    run.ops = 123;
    run.source = store::Source::traced;
    EXPECT_EQ(run_title(run),
              "run 7: import:lockstat lock\\x1b[2Jstat.txt#1 x2 threads, 1 s, 123 ops (traced)");
}

TEST(ReportOriginText, NamesWhereAndByWhatAndEscapesTheHost) {
    const analysis::ReportOrigin o{"2026-12-07T08:10:00.000Z", "build\x1b]0;x\x07-1",
                                   "6.1.0-13-amd64", "hitmap 0.1.0 (commit 7cc2407abcd1)"};
    EXPECT_EQ(origin_sentence(o), "Made 2026-12-07T08:10:00.000Z on host build\\x1b]0;x\\x07-1, "
                                  "kernel 6.1.0-13-amd64, by hitmap 0.1.0 (commit 7cc2407abcd1).");
}

TEST_F(ReportFileTest, ReplacesARegularFileWhole) {
    const fs::path file = dir_ / "r.html";
    write_report_file(file, "old");
    write_report_file(file, "new");
    EXPECT_EQ(read(file), "new");
    // Nothing else is left in the folder (no temporary file).
    EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(ReportFileTest, FollowsASymbolicLink) {
    const fs::path target = dir_ / "target.csv";
    write_report_file(target, "before");
    fs::create_symlink(target, dir_ / "link.csv");
    write_report_file(dir_ / "link.csv", "after");
    EXPECT_TRUE(fs::is_symlink(dir_ / "link.csv"));
    EXPECT_EQ(read(target), "after");
}

TEST_F(ReportFileTest, WritesIntoAFifoWithoutReplacingIt) {
    const fs::path fifo = dir_ / "fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // A reader that is already there (non-blocking open, then read what was written).
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(reader, 0);
    write_report_file(fifo, "through");
    char buf[16] = {};
    EXPECT_EQ(::read(reader, buf, sizeof buf), 7);
    EXPECT_EQ(std::string(buf), "through");
    ::close(reader);
    EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST_F(ReportFileTest, RefusesAFolderAndLeavesItAlone) {
    fs::create_directories(dir_ / "sub");
    EXPECT_THROW(write_report_file(dir_ / "sub", "x"), ReportWriteError);
    EXPECT_TRUE(fs::is_directory(dir_ / "sub"));
}

TEST_F(ReportFileTest, AMissingFolderIsAnErrorAndWritesNothing) {
    EXPECT_THROW(write_report_file(dir_ / "no" / "r.md", "x"), ReportWriteError);
    EXPECT_FALSE(fs::exists(dir_ / "no"));
}

} // namespace
} // namespace hitmap::report
