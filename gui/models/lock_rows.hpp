#pragma once
// Lock tables as table rows: one row per class and side (lock_stat's "name", "-W", "-R"
// rows), the call sites of one class, and two runs' classes side by side. Times in µs, as
// lock_stat prints them; a value the source did not provide stays empty, never 0.
#include "collector/analysis/lock_changes.hpp"
#include "collector/store/lock_tables.hpp"
#include "gui/models/table_model.hpp"

#include <QString>
#include <optional>
#include <vector>

namespace hitmap::gui {

struct LockRow {
    std::size_t table = 0; // index into the run's lock tables
    std::size_t cls = 0;   // index into that table's classes
    QString source, name, type, side;
    std::optional<double> con_bounces, contentions, wait_min_us, wait_avg_us, wait_max_us,
        wait_total_us, acq_bounces, acquisitions, hold_min_us, hold_avg_us, hold_max_us,
        hold_total_us;
};

// By contentions, descending, as /proc/lock_stat sorts.
std::vector<LockRow> lock_rows(const std::vector<store::LockData>& tables);
std::vector<Column<LockRow>> lock_columns();

struct LockPointRow {
    QString kind; // "contention" (where the waiter was) or "contending" (where the holder took it)
    double count = 0;
    QString site;
};
std::vector<LockPointRow> lock_point_rows(const locks::LockClassStats& cls);
std::vector<Column<LockPointRow>> lock_point_columns();

// Two runs' classes side by side (analysis::lock_changes).
std::vector<Column<analysis::LockChange>> lock_compare_columns();

} // namespace hitmap::gui
