#pragma once
// What the GUI says about a run's data before its numbers: where they came from and how
// complete they are (traced operations of all, dropped records, migrations, notes).
#include "collector/store/c2c_tables.hpp"
#include "collector/store/records.hpp"

#include <QString>
#include <optional>

namespace hitmap::gui {

// Rich text for a tooltip, a line per fact: workload and variant, source, c2c source and
// reason, note.
QString run_tooltip(const store::RunRecord& run);

// Rich text for the run header: identity with "–" for unknowns, the throughput source, and,
// with c2c data, traced vs total operations, dropped records and CPU migrations. Names and
// notes bounded (shown_text.hpp); run_tooltip has them whole.
QString run_header(const store::RunRecord& run, const std::optional<store::C2cData>& c2c);

} // namespace hitmap::gui
