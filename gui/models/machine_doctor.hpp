#pragma once
// The GUI's side of `hitmap-collect doctor --json` (schemas/doctor.schema.json): one row per
// capability, as the collector worded it. The app does not link the perf layer; it asks the
// collector, so the dialog and the command can never disagree.
#include "gui/models/table_model.hpp"

#include <QByteArray>
#include <QString>
#include <vector>

namespace hitmap::gui {

struct CapabilityRow {
    QString key;   // "hardware_pmu", "tracepoints", ...
    QString label; // "hardware PMU"
    bool available = false;
    QString detail; // what was found, or why not
};

struct DoctorReport {
    std::vector<CapabilityRow> rows;
    QString error; // non-empty when the output was not a doctor report
};

DoctorReport parse_doctor_json(const QByteArray& json);

// Capability, yes/no, detail; sorted by the report's own order.
std::vector<Column<CapabilityRow>> capability_columns();

} // namespace hitmap::gui
