#pragma once
// The engine's instrumented lock classes as a lock_stat table: the same rows /proc/lock_stat
// prints for a kernel class, so reports, imports and the GUI treat them alike.
#include "collector/store/lock_tables.hpp"
#include "engine/locks/lock_class_report.hpp"

#include <vector>

namespace hitmap::collector {

store::LockData engine_lock_data(const std::vector<engine::LockClassReport>& classes);

} // namespace hitmap::collector
