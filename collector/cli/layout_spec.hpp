#pragma once
// Layouts a database holds, named on the command line: STRUCT=run:ID (the layout run ID recorded
// its STRUCT objects under) and STRUCT=hash:HASH for `layout diff`, and the layouts `show
// --layout` selects. A hash is the one `show` prints after '#', or its first 4 digits or more.
#include "collector/store/database.hpp"
#include "engine/layout/layout.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace hitmap::cli {

// STRUCT=run:ID or STRUCT=hash:HASH, as opposed to what parse_layout reads.
bool names_stored_layout(const std::string& assignment);

// The stored layout an assignment names; its origin says which run's (and where that run's came
// from) or which hash. Throws UsageError (one line) for an unknown run, hash or struct, a run
// without objects of the struct or with two layouts of it (listed), and a hash prefix of two.
engine::Layout stored_layout(store::Database& db, const std::string& assignment);

// The layout rows `show --layout SPEC` selects: HASH, STRUCT=run:ID, STRUCT=hash:HASH, or
// STRUCT=VERSION|FILE.json|btf[:FILE]: the stored layouts that use it (a layout of its shape, or
// a mem_cgroup around a page_counter of its shape; the built-in v6.1 and a BTF layout of one
// shape are one row) and those stored under that version name. Empty when there are none.
std::vector<std::int64_t> selected_layouts(store::Database& db, const std::string& spec);

} // namespace hitmap::cli
