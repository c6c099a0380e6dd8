#include "collector/analysis/field_names.hpp"

#include <gtest/gtest.h>

using hitmap::analysis::short_field_names;

TEST(ShortFieldNames, SharedLastPartsKeepTheirOwner) {
    EXPECT_EQ(
        short_field_names({"memory.usage", "swap.usage", "kmem.usage", "tcpmem.usage"}),
        (std::vector<std::string>{"memory.usage", "swap.usage", "kmem.usage", "tcpmem.usage"}));
    EXPECT_EQ(short_field_names({"css.parent", "memory.parent", "memory.high"}),
              (std::vector<std::string>{"css.parent", "memory.parent", "high"}));
}

TEST(ShortFieldNames, AUniqueLastPartIsEnough) {
    EXPECT_EQ(short_field_names({"memory.usage", "memory.high", "flags"}),
              (std::vector<std::string>{"usage", "high", "flags"}));
    EXPECT_EQ(short_field_names({"memory.usage"}), (std::vector<std::string>{"usage"}));
}

TEST(ShortFieldNames, TakesAsManyPartsAsNeeded) {
    EXPECT_EQ(short_field_names({"a.b.count", "c.b.count", "d.count"}),
              (std::vector<std::string>{"a.b.count", "c.b.count", "d.count"}));
    // "count" ends "d.count" but "b.count" is not a whole-part suffix of "xb.count".
    EXPECT_EQ(short_field_names({"a.b.count", "xb.count"}),
              (std::vector<std::string>{"b.count", "xb.count"}));
}

TEST(ShortFieldNames, AWholePathNamedLikeAnotherPartStaysWhole) {
    // "usage" is itself a field and the last part of "memory.usage".
    EXPECT_EQ(short_field_names({"usage", "memory.usage"}),
              (std::vector<std::string>{"usage", "memory.usage"}));
    EXPECT_EQ(short_field_names({"x.y", "x.y"}), (std::vector<std::string>{"x.y", "x.y"}));
    EXPECT_TRUE(short_field_names({}).empty());
}
