#pragma once
// Every chart in the app is built here from plain values, so views and export draw the same
// pictures and a later move to Qt Graphs stays in this file.
#include "collector/analysis/comparison.hpp"
#include "collector/analysis/lock_changes.hpp"
#include "collector/analysis/rate.hpp"
#include "collector/analysis/scaling.hpp"

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

class QChart;
class QChartView;
class QWidget;

namespace hitmap::gui {

struct BarSet {
    QString label;        // "v6.0 (run 2)"
    QList<double> values; // one per category
};

enum class ValueScale { linear, log };

// Grouped bars: one group per category (field), one bar per set (run). A log scale is for
// values that differ by orders of magnitude (contentions before and after a fix); zeros then
// draw no bar.
QChart* bar_chart(const QString& title, const QStringList& categories,
                  const std::vector<BarSet>& sets, const QString& value_axis,
                  ValueScale scale = ValueScale::linear);
// HITM of one object's fields in two runs (the compare view, the report), put in proportion by
// `basis`: the title names the unit in full (analysis::rate_unit), the value axis briefly
// (analysis::hitm_axis_title: a chart's height elides a long axis title).
QChart* field_chart(const QString& object, const QString& before, const QString& after,
                    const std::vector<analysis::FieldPair>& fields,
                    const std::optional<analysis::RateBasis>& basis);
// Contentions of the busiest `limit` lock classes in two runs, on a log scale (a fix takes
// them down by orders of magnitude).
QChart* lock_chart(const QString& before, const QString& after,
                   const std::vector<analysis::LockChange>& classes, std::size_t limit = 8);
// Median ops/s per thread count, one line per variant, with a band from min to max repeat.
QChart* scaling_chart(const QString& title, const std::vector<analysis::ScalingSeries>& series);
// One lock class's wait times, a bar per log2 bucket.
QChart* wait_chart(const QString& lock_class, const std::vector<analysis::HistogramBar>& bars);

// A view for export and tests too: antialiased, no animation.
QChartView* chart_view(QChart* chart, QWidget* parent = nullptr);

bool save_png(QWidget* widget, const QString& path);
bool save_svg(QChartView* view, const QString& path);

} // namespace hitmap::gui
