#include "collector/c2c/cost_model.hpp"
#include "collector/c2c/errors.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

namespace hitmap::c2c {
namespace {

TEST(CostTable, MissingKeysKeepTheCcbenchDefaults) {
    const CostTable t =
        parse_cost_table(R"({"load_hitm": 81, "store_hitm": 83.5, "queueing": false})", "test");
    EXPECT_EQ(t.load_hitm, 81);
    EXPECT_EQ(t.store_hitm, 83.5);
    EXPECT_FALSE(t.queueing);
    EXPECT_EQ(t.l1_hit, CostTable{}.l1_hit);
    EXPECT_EQ(t.cold, 355);
}

TEST(CostTable, UnknownKeysAndBadValuesAreErrors) {
    try {
        parse_cost_table(R"({"load_hitm": 81, "lod_hitm": 80})", "my.json");
        ADD_FAILURE() << "expected a CostTableError";
    } catch (const CostTableError& e) {
        EXPECT_STREQ(e.what(), "cost table my.json: unknown key 'lod_hitm'");
    }
    EXPECT_THROW(parse_cost_table(R"({"cold": -1})", "t"), CostTableError);
    EXPECT_THROW(parse_cost_table(R"({"cold": "355"})", "t"), CostTableError);
    EXPECT_THROW(parse_cost_table(R"({"queueing": 1})", "t"), CostTableError);
    EXPECT_THROW(parse_cost_table(R"([1, 2])", "t"), CostTableError);
    EXPECT_THROW(parse_cost_table("{", "t"), CostTableError);
}

TEST(CostTable, LoadsFromAFile) {
    const auto path = std::filesystem::temp_directory_path() /
                      ("hitmap_cost_table_" + std::to_string(::getpid()) + ".json");
    std::ofstream(path) << R"({"clean_forward": 92, "atomic_hitm": 110})";
    const CostTable t = load_cost_table(path);
    std::filesystem::remove(path);
    EXPECT_EQ(t.clean_forward, 92);
    EXPECT_EQ(t.atomic_hitm, 110);
    EXPECT_THROW(load_cost_table(path), CostTableError);
}

} // namespace
} // namespace hitmap::c2c
