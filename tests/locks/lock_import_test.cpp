// Every file in ../shared/fixtures/lockstat/: detected, then imported or refused with a clear
// message. A file added to the folder without an expectation here fails the test.
#include "collector/locks/errors.hpp"
#include "collector/locks/lock_import.hpp"
#include "tests/locks/fixture_text.hpp"

#include <gtest/gtest.h>
#include <map>

namespace hitmap::locks {
namespace {

struct Expected {
    LockFormat format;
    std::vector<std::size_t> classes_per_table; // empty: refused
};

const std::map<std::string, Expected>& expectations() {
    using F = LockFormat;
    static const std::map<std::string, Expected> all{
        {"lockstat-blog-2021-contended-v0.4.txt", {F::lockstat_v04, {2}}},
        {"lockstat-blog-2021-uncontended-v0.4.txt", {F::lockstat_v04, {20}}},
        {"lockstat-lkml-2008-torok-v0.3-wrapped.txt", {F::lockstat_v03, {2, 3}}},
        {"lockstat-lkml-2009-kamezawa-v0.3.txt", {F::lockstat_v03, {1}}},
        {"lockstat-lkml-2022-chenying-rq-lock-v0.4-wrapped.txt", {F::lockstat_v04, {1}}},
        {"lockstat-rst-v0.4-example.txt", {F::lockstat_v04, {2}}},
        {"lockstat-rst-v0.4-grep-top10.txt", {F::lockstat_v04, {9}}},
        {"lockstat-rst-v0.4-subclass-example.txt", {F::lockstat_v04, {2}}},
        {"lockstat-stable-2020-avg-overflow-snippet.txt", {F::lockstat_v04, {1}}},
        {"lockstat-txt-v0.3-example.txt", {F::lockstat_v03, {2}}},
        {"lockstat-txt-v0.3-grep-top10.txt", {F::lockstat_v03, {9}}},
        {"lockstat-txt-v0.3-subclass-example.txt", {F::lockstat_v03, {2}}},
        {"perf-lock-contention-2022-first-example.txt", {F::perf_lock_contention, {9}}},
        {"perf-lock-contention-caller-perfwiki.txt", {F::perf_lock_contention, {7, 3, 1, 1}}},
        {"perf-lock-contention-cgroup-perfwiki.txt", {F::perf_lock_contention, {2}}},
        {"perf-lock-contention-csv-2023.txt", {F::perf_lock_contention_csv, {9, 6, 10}}},
        {"perf-lock-contention-fio-hours-quoted-2024.txt", {F::perf_lock_contention, {2}}},
        {"perf-lock-contention-lockaddr-perfwiki.txt", {F::perf_lock_contention, {12}}},
        {"perf-lock-contention-task-perfwiki.txt", {F::perf_lock_contention, {8, 2, 3}}},
        {"perf-lock-contention-traceiter-2024.txt", {F::perf_lock_contention, {7}}},
        {"perf-lock-report-combine-2022.txt", {F::perf_lock_report, {24, 14}}},
        {"perf-lock-report-threads-doc.txt", {F::perf_lock_report, {12}}},
        {"perf-lock-report-units-2022.txt", {F::perf_lock_report, {6, 6}}},
        {"mutrace-banker-example.txt", {F::mutrace, {}}},
        {"illumos-lockstat-man-examples.txt", {F::illumos_lockstat, {}}},
    };
    return all;
}

TEST(LockImport, EveryFixtureIsDetectedAndImportedOrRefused) {
    HITMAP_REQUIRE_SHARED(dir, "fixtures/lockstat");
    std::size_t seen = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        SCOPED_TRACE(name);
        const auto it = expectations().find(name);
        ASSERT_NE(it, expectations().end()) << "new fixture without an expectation";
        ++seen;
        const std::string text = hitmap::testing::read_file(entry.path());
        const Expected& expected = it->second;
        EXPECT_EQ(detect_format(text), expected.format);
        if (expected.classes_per_table.empty()) {
            EXPECT_THROW(parse_lock_text(text), UnsupportedLockFormat);
            continue;
        }
        const auto reports = parse_lock_text(text);
        std::vector<std::size_t> counts;
        for (const auto& r : reports)
            counts.push_back(r.classes.size());
        EXPECT_EQ(counts, expected.classes_per_table);
    }
    EXPECT_EQ(seen, expectations().size());
}

std::string refusal(const std::string& text) {
    try {
        parse_lock_text(text);
    } catch (const UnsupportedLockFormat& e) {
        return e.what();
    }
    return "not refused";
}

TEST(LockImport, MutraceIsRefusedWithAClearMessage) {
    LOAD_LOCK_FIXTURE("mutrace-banker-example.txt");
    EXPECT_EQ(refusal(text),
              "mutrace output is not supported; import /proc/lock_stat or perf lock output");
}

TEST(LockImport, IllumosLockstatIsRefusedWithAClearMessage) {
    LOAD_LOCK_FIXTURE("illumos-lockstat-man-examples.txt");
    EXPECT_EQ(refusal(text), "illumos lockstat output is not supported; import /proc/lock_stat or "
                             "perf lock output");
}

TEST(LockImport, TextWithoutATableIsRefused) {
    EXPECT_EQ(detect_format("hello\nworld: 1 2\n"), LockFormat::unknown);
    EXPECT_EQ(
        refusal("hello\n"),
        "no /proc/lock_stat or perf lock table found; import /proc/lock_stat or perf lock output");
    EXPECT_EQ(refusal(""), refusal("hello\n"));
}

TEST(LockImport, Seed003TablesImportWithTheirContentions) {
    // The investigation the issue replays: Kamezawa's 2009 mail, before and after per-CPU
    // precharge; the whole mail (prose, tables, patch) imports.
    HITMAP_REQUIRE_SHARED(seeds, "seeds");
    for (const auto& entry : std::filesystem::directory_iterator(seeds)) {
        if (entry.path().filename().string().rfind("003_", 0) != 0)
            continue;
        const auto reports = parse_lock_text(hitmap::testing::read_file(entry.path()));
        ASSERT_EQ(reports.size(), 2u);
        EXPECT_EQ(testing::find_class(reports[0], "&counter->lock").write->contentions, 1196935u);
        EXPECT_EQ(testing::find_class(reports[1], "&counter->lock").write->contentions, 12984u);
        return;
    }
    GTEST_SKIP() << "seed 003 not found";
}

// The line a refused text is refused at, or 0 when check_text takes it.
std::size_t refused_line(std::string_view text) {
    try {
        check_text(text);
    } catch (const LockParseError& e) {
        return e.line();
    }
    return 0;
}

// A file saved by an editor that starts it with a UTF-8 byte order mark reads as without it: the
// lock_stat version line is that, not a caption, and a perf lock table's caption has no mark.
TEST(LockImport, AByteOrderMarkBeforeTheFirstLineIsSkipped) {
    const std::string bom = "\xEF\xBB\xBF";
    for (const char* name :
         {"lockstat-lkml-2009-kamezawa-v0.3.txt", "perf-lock-contention-csv-2023.txt"}) {
        SCOPED_TRACE(name);
        LOAD_LOCK_FIXTURE(name);
        const auto plain = parse_lock_text(text);
        const auto marked = parse_lock_text(bom + text);
        ASSERT_EQ(testing::class_counts(marked), testing::class_counts(plain));
        EXPECT_EQ(marked[0].caption, plain[0].caption);
        EXPECT_EQ(marked[0].version, plain[0].version);
    }
}

TEST(CheckText, TakesUtf8TabsAndCrLfLineEnds) {
    EXPECT_EQ(refused_line("a\tb\r\nname \xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\x92\n"), 0u);
    EXPECT_EQ(refused_line(""), 0u);
}

TEST(CheckText, RefusesInvalidUtf8AndControlCharactersAtTheirLine) {
    EXPECT_EQ(refused_line("ok\nok\nbad \xff\n"), 3u);
    EXPECT_EQ(refused_line("overlong \xc0\xaf\n"), 1u);
    EXPECT_EQ(refused_line("ok\nsurrogate \xed\xa0\x80\n"), 2u);
    EXPECT_EQ(refused_line("above U+10FFFF \xf4\x90\x80\x80\n"), 1u);
    EXPECT_EQ(refused_line("ok\ncut \xe2\x82"), 2u);
    EXPECT_EQ(refused_line("ok\nesc \x1b[0m\n"), 2u);
    EXPECT_EQ(refused_line("a CR \r inside\n"), 1u);
    EXPECT_EQ(refused_line(std::string_view("ok\r\nnul \0\n", 11)), 2u);
    EXPECT_EQ(refused_line("del \x7f\n"), 1u);
}

TEST(CheckText, Utf16IsRefusedAsAWholeWithAHint) {
    for (const std::string_view text :
         {std::string_view("\xff\xfel\0o\0c\0k\0", 10), std::string_view("\xfe\xff\0l\0o", 6),
          std::string_view("l\0o\0c\0k\0", 8), std::string_view("\0l\0o\0c\0k", 8)}) {
        try {
            check_text(text);
            ADD_FAILURE() << "taken";
        } catch (const LockTextEncodingError& e) {
            EXPECT_NE(std::string(e.what()).find("iconv -f UTF-16 -t UTF-8"), std::string::npos);
        }
    }
}

} // namespace
} // namespace hitmap::locks
