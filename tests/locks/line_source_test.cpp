// LineSource: what mail and documentation put around a table is removed, line numbers kept.
#include "collector/locks/line_source.hpp"

#include <gtest/gtest.h>

namespace hitmap::locks {
namespace {

std::vector<SourceLine> all(LineSource lines) {
    std::vector<SourceLine> out;
    while (!lines.done())
        out.push_back(lines.take());
    return out;
}

TEST(LineSource, StripsQuotePrefixesOfAnyDepthAndCarriageReturns) {
    const auto lines = all(LineSource("> > > > a b\r\n>>c\n> \n > indented\nplain\n"));
    ASSERT_EQ(lines.size(), 5u);
    EXPECT_EQ(lines[0].text, "a b");
    EXPECT_EQ(lines[1].text, "c");
    EXPECT_EQ(lines[2].text, "");
    EXPECT_EQ(lines[3].text, "indented");
    EXPECT_EQ(lines[4].text, "plain");
    EXPECT_EQ(lines[4].number, 5u);
}

TEST(LineSource, AUtf8ByteOrderMarkIsNoPartOfTheFirstLine) {
    const auto lines = all(LineSource("\xEF\xBB\xBFlock_stat version 0.4\n\xEF\xBB\xBFx\n"));
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].text, "lock_stat version 0.4");
    EXPECT_EQ(lines[0].number, 1u);
    EXPECT_EQ(lines[1].text, "\xEF\xBB\xBFx"); // inside the text it is a character like another
}

TEST(LineSource, StripsTheNumbersOfAConsecutivelyNumberedListing) {
    // As in Documentation/locking/lockstat.rst: "  01 ...", "  02----", a bare "  05".
    const auto lines = all(LineSource("  01 lock_stat version 0.4\n  02-----\n  03   x y\n  04\n"));
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(lines[0].text, " lock_stat version 0.4");
    EXPECT_EQ(lines[1].text, "-----");
    EXPECT_EQ(lines[2].text, "   x y");
    EXPECT_EQ(lines[3].text, "");
}

TEST(LineSource, KeepsDigitsThatAreNotAListingsNumbers) {
    // Wrapped rows and perf counts start with digits, but not with consecutive numbers.
    const auto lines = all(LineSource("7196  82.92\n7373  17160\n12  3\n"));
    EXPECT_EQ(lines[0].text, "7196  82.92");
    EXPECT_EQ(lines[2].text, "12  3");
}

TEST(LineSource, JoinsAContinuationKeepingTheFirstLineNumber) {
    LineSource lines("x\nname:  1\n2 3\n4\nnext\n");
    lines.take();
    SourceLine record = lines.take();
    const auto numeric = [](std::string_view t) {
        return !t.empty() && t[0] >= '0' && t[0] <= '9';
    };
    while (lines.join_next_if(record, numeric)) {
    }
    EXPECT_EQ(record.text, "name:  1 2 3 4");
    EXPECT_EQ(record.number, 2u);
    EXPECT_EQ(lines.peek().text, "next");
}

} // namespace
} // namespace hitmap::locks
