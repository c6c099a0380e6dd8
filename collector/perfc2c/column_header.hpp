#pragma once
// The columns of a perf c2c table, read from its header: a group line ("----- LLC Load Hitm
// -----", "Total"), a name line ("Lcl", "records") and a dot line ("......."), whose dot runs
// give each column's extent. Columns differ by perf version and vendor, so they are found by
// name, never by position.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::perfc2c {

struct Column {
    std::string group; // the dashed span above it ("LLC Load Hitm") or the word above it
                       // ("Total", "Rmt"); empty when there is none
    std::string name;  // "Lcl", "records", "Code address"
};

// The header's lines without their leading '#'. Throws C2cParseError (at `dots_line`) when the
// dot line has no column.
std::vector<Column> read_columns(std::string_view group_line, std::string_view name_line,
                                 std::string_view dot_line, std::size_t dots_line);

} // namespace hitmap::perfc2c
