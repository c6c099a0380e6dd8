#pragma once
// The store's schema history: migration N turns a version N-1 database into version N.
#include <cstdint>
#include <span>
#include <string_view>

namespace hitmap::schemas {

// Stored in the SQLite header (PRAGMA application_id) so a hitmap file is recognised before
// any of its tables are read. ASCII "HITM".
inline constexpr std::int32_t application_id = 0x4849544D;

struct Migration {
    int version;           // from the file name NNNN_<name>.sql
    std::string_view name; // <name>
    std::string_view sql;  // runs inside one transaction; must not BEGIN or COMMIT itself
};

// Ascending by version, embedded from schemas/migrations/ at build time.
std::span<const Migration> migrations();

} // namespace hitmap::schemas
