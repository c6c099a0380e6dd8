// Reports of stored data (issue 9): a small database made by hitmap itself and committed in
// tests/data (README there), reported and predicted by the binary, compared byte for byte with
// golden files. Counts asserted here are the stored ones, so they do not depend on how this VM
// schedules threads today; the live runs elsewhere are smoke tests. A difference is written
// beside the golden file as .actual and shown as `diff -u` (tests/support/golden.hpp).
#include "collector/store/database.hpp"
#include "tests/cli/cli_test_support.hpp"
#include "tests/support/golden.hpp"

#include <cstdlib>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <regex>

namespace hitmap::testing {
namespace {

const std::filesystem::path kData = HITMAP_TEST_DATA;

// A copy of the committed database and its traces, migrated to this build's schema.
std::string stored_db(const TempDir& dir) {
    const auto db = dir / "small.db";
    std::filesystem::copy_file(kData / "small.db", db);
    std::filesystem::copy(kData / "small.db.traces", dir / "small.db.traces");
    store::Database::open(db);
    return db.string();
}

std::string normalized(std::string text, const TempDir& dir) {
    const std::string tmp = dir.path().string();
    for (std::size_t at; (at = text.find(tmp)) != std::string::npos;)
        text.replace(at, tmp.size(), "$TMP");
    // A report says when, on which host and kernel, by which build ("# Made ..." first in
    // text, "Made ..." under a Markdown title).
    static const std::regex origin("Made [0-9T:.Z-]+ on host [^\n]*, by hitmap [^\n]*\\)\\.?");
    return std::regex_replace(text, origin, "Made $$ORIGIN");
}

class CliGolden : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(CliGolden, OutputEqualsTheGoldenFile) {
    TempDir dir;
    const std::string db = stored_db(dir);
    std::vector<std::string> args = GetParam();
    std::string name;
    for (const auto& a : args)
        name += (name.empty() ? "" : "_") + a;
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.')
            c = '-';
    args.insert(args.end(), {"--db", db});
    const CliResult r = run_cli(args, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    expect_golden(kData / "golden" / (name + ".txt"), normalized(r.out, dir));
}

INSTANTIATE_TEST_SUITE_P(
    Stored, CliGolden,
    ::testing::Values(std::vector<std::string>{"show"}, std::vector<std::string>{"show", "--json"},
                      std::vector<std::string>{"report", "1"},
                      std::vector<std::string>{"report", "1", "--json"},
                      std::vector<std::string>{"report", "2", "--lines", "3"},
                      std::vector<std::string>{"predict", "1", "--layout", "page_counter=v6.1"},
                      std::vector<std::string>{"predict", "1", "--layout", "page_counter=v6.1",
                                               "--json"},
                      std::vector<std::string>{"report", "3", "--locks"},
                      std::vector<std::string>{"report", "4", "--locks", "--json"},
                      std::vector<std::string>{"export", "--runs", "1,2"},
                      std::vector<std::string>{"export", "--runs", "1,2", "--json"},
                      std::vector<std::string>{"export", "--runs", "3,4"},
                      std::vector<std::string>{"compare", "1", "2"},
                      std::vector<std::string>{"compare", "1", "2", "--format", "md"},
                      std::vector<std::string>{"compare", "1", "2", "--json"}));

// The CSV export writes a file per table: their names and texts, in order, are one golden.
TEST(CliGoldenCsv, ExportEqualsTheGoldenFiles) {
    TempDir dir;
    const std::string db = stored_db(dir);
    const auto out = dir / "csv";
    const CliResult r = run_cli(
        {"export", "--runs", "1,2", "--format", "csv", "-o", out.string(), "--db", db}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(out))
        files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::string all;
    for (const auto& f : files)
        all += "== " + f.filename().string() + "\n" + read_file(f);
    expect_golden(kData / "golden" / "export_--runs_1-2_--format_csv.txt", all);
}

std::map<std::string, double> field_transfers(const std::string& db, const char* run,
                                              const TempDir& dir) {
    const CliResult r = run_cli({"report", run, "--json", "--all-lines", "--db", db}, dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
    std::map<std::string, double> sums;
    const auto report = nlohmann::json::parse(r.out); // kept: the loops walk into it
    for (const auto& line : report["lines"])
        for (const auto& f : line["fields"])
            sums[f["field"]] += f["counts"]["transfers"].get<double>();
    return sums;
}

// Moved from the live CliC2c tests: the v6.0 layout's limit fields take transfers from the
// usage line; v6.1's padding keeps them off it, while usage itself keeps its transfers.
TEST(CliStored, PaddingRemovesTheLimitFieldTransfersAndKeepsUsage) {
    TempDir dir;
    const std::string db = stored_db(dir);
    auto v60 = field_transfers(db, "1", dir);
    auto v61 = field_transfers(db, "2", dir);
    const double limits60 =
        v60["memory.min"] + v60["memory.low"] + v60["memory.high"] + v60["memory.max"];
    const double limits61 =
        v61["memory.min"] + v61["memory.low"] + v61["memory.high"] + v61["memory.max"];
    EXPECT_GT(limits60, 50);
    EXPECT_LE(limits61, 0.1 * limits60);
    EXPECT_GT(v61["memory.usage"], 100) << "usage is truly shared in every layout";
    // v6.0 puts css.parent on memory.usage's line (memory at +0xd0), v6.1 does not.
    EXPECT_GT(v60["css.parent"], 10 * std::max(v61["css.parent"], 1.0));
}

// Moved from the live CliC2c tests: replayed under the padded layout, the v6.0 trace predicts
// the limit fields' transfers gone and the usage lines' kept.
TEST(CliStored, PredictionUnderPaddingDropsTheLimitFields) {
    TempDir dir;
    const std::string db = stored_db(dir);
    const CliResult r = run_cli(
        {"predict", "1", "--layout", "page_counter=v6.1", "--json", "--db", db}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    double recorded = 0, predicted = 0, parent_recorded = 0, parent_predicted = 0;
    for (const auto& f : j["fields"]) {
        const double r = f["recorded"]["transfers_per_1k_ops"].get<double>();
        const double p = f["predicted"]["transfers_per_1k_ops"].get<double>();
        if (f["field"] == "memory.high" || f["field"] == "memory.max" ||
            f["field"] == "memory.min" || f["field"] == "memory.low") {
            recorded += r;
            predicted += p;
        }
        if (f["field"] == "css.parent") {
            parent_recorded += r;
            parent_predicted += p;
        }
    }
    EXPECT_GT(recorded, 3);
    EXPECT_LE(predicted, 0.1 * recorded);
    // The padded counter moves memory.usage off the line of css.parent, read on every walk.
    EXPECT_GT(parent_recorded, 50);
    EXPECT_LE(parent_predicted, 0.05 * parent_recorded);
    EXPECT_GT(j["usage_lines"]["predicted"]["transfers_per_1k_ops"].get<double>(), 100);
}

// Kamezawa's precharge contends on the res_counter lock far less than a charge per page (the
// live lock tests assert only acquisitions, which do not depend on scheduling).
TEST(CliStored, PrechargeContendsOnTheCounterLockFarLessThanPerPage) {
    TempDir dir;
    const std::string db = stored_db(dir);
    const auto contentions = [&](const char* run) {
        const CliResult r = run_cli({"report", run, "--locks", "--json", "--db", db}, dir.path());
        EXPECT_EQ(r.status, 0) << r.err;
        const auto report = nlohmann::json::parse(r.out);
        for (const auto& t : report["lock_tables"])
            for (const auto& c : t["classes"])
                if (c["name"] == "&counter->lock")
                    return c["write"]["contentions"].get<double>();
        ADD_FAILURE() << "no &counter->lock in run " << run;
        return 0.0;
    };
    const double per_page = contentions("3"), precharge = contentions("4");
    EXPECT_GT(per_page, 1000);
    EXPECT_LT(precharge, 0.1 * per_page);
}

} // namespace
} // namespace hitmap::testing
