#pragma once
// The SQLite connection under a Database: for the store's own table modules (c2c, lock and
// simulation tables, merge) and for tests that check rows directly. Nothing outside
// collector/store includes this (tests aside): SQL stays in the store.
#include "collector/store/database.hpp"

namespace hitmap::store {

SQLite::Database& sql_connection(Database& db);

} // namespace hitmap::store
