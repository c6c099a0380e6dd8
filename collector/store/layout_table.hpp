#pragma once
// The layout tables (schemas/migrations/0002_c2c.sql, 0010_layout_history.sql): one row per
// shape, shared by every run whose objects had that shape and named by a short hash of it, and
// which runs recorded their objects under which layouts, with where each run's came from.
#include "collector/store/database.hpp"
#include "engine/layout/layout.hpp"

#include <SQLiteCpp/Database.h>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::store {

// Struct, size, alignment and every placed field's name, offset and size: what makes two
// layouts one row. The version and the origin are names, not shape.
std::string layout_signature(const engine::Layout& layout);

inline constexpr std::size_t kLayoutHashDigits = 12;
// The first 12 hex digits of the XXH3-64 of a signature: what `show` prints after '#', and what
// `show --layout` and `layout diff STRUCT=hash:HASH` take (a prefix of it, as git takes a commit).
std::string layout_hash(std::string_view signature);

// layout_hash as the SQL function hitmap_layout_hash(signature), for migration 0010, which hashes
// the rows stored before there were hashes. The migrator registers it on every connection it
// migrates.
void register_layout_hash(SQLite::Database& sql);

// The id of the row of this shape, inserted with its fields when the database has none.
std::int64_t upsert_layout(SQLite::Database& sql, const engine::Layout& layout);

// A stored layout as the engine's, fields matched to the struct this build models by name; a
// struct it does not model (a plugin's) gets a type named as the database names it. The origin
// is empty: it belongs to a run's use of the layout (RunLayout), not to the row.
engine::Layout read_layout(Database& db, std::int64_t layout_id);

struct LayoutRow {
    std::int64_t id = 0;
    std::string struct_name;
    std::string version; // the name of the first layout of this shape stored
    std::string hash;
    bool operator==(const LayoutRow&) const = default;
};

// A layout some objects of a run were recorded under.
struct RunLayout {
    std::int64_t run_id = 0;
    LayoutRow layout;
    // engine::Layout::origin as the run had it; nullopt when unknown (stored before 0010).
    std::optional<std::string> origin;
    bool operator==(const RunLayout&) const = default;
};

// The distinct layouts each run's objects were recorded under, by run, struct and hash (a layout
// twice, adjacent, when its objects had two origins); only `run`'s when given. Runs without
// cacheline data have none.
std::vector<RunLayout> run_layouts(Database& db, std::optional<std::int64_t> run = std::nullopt);

// The rows whose hash begins with `prefix` (lower-case hex digits).
std::vector<LayoutRow> layouts_with_hash_prefix(Database& db, std::string_view prefix);
// The rows of `struct_name` stored under this version name.
std::vector<LayoutRow> layouts_named(Database& db, std::string_view struct_name,
                                     std::string_view version);
// Every row, by id.
std::vector<LayoutRow> stored_layouts(Database& db);

// "page_counter@v6.1#0123456789ab": how `show` and error messages name a stored layout.
std::string layout_label(const LayoutRow& row);

} // namespace hitmap::store
