#pragma once
// `hitmap export` and File → Export report: the report model of the analysis library written
// as HTML or PDF with the app's own chart builders, so the pictures match the screen. HTML is
// one self-contained file (charts as inline SVG); the PDF is the same page typeset by Qt's
// rich-text engine (charts as embedded images).
#include "collector/analysis/report_data.hpp"

#include <QString>
#include <optional>

namespace hitmap::gui {

enum class ReportFormat { html, pdf };

// "html" or "pdf"; nullopt for anything else.
std::optional<ReportFormat> report_format(const QString& name);

// Draws and writes `report` to `path` under a temporary name, renamed when complete; throws
// report::ReportWriteError (one line) and leaves an existing file as it was.
void write_report(const analysis::Report& report, ReportFormat format, const QString& path);

// Opens `db_path` read-only, builds the report `request` asks for and writes it. Throws
// store::StoreError for an unreadable file, unknown runs or an empty selection.
void export_report(const QString& db_path, const analysis::ReportRequest& request,
                   ReportFormat format, const QString& path);

} // namespace hitmap::gui
