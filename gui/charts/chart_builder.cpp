#include "gui/charts/chart_builder.hpp"

#include "gui/models/shown_text.hpp"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QPainter>
#include <QScatterSeries>
#include <QSvgGenerator>
#include <QValueAxis>
#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace hitmap::gui {

namespace {

// Every text a chart draws is bounded (shown_text.hpp): Qt Charts lays legends, axis labels
// and titles out at their whole length, and the charts have no tooltips to hold the rest.
QChart* new_chart(const QString& title) {
    auto* chart = new QChart;
    chart->setTitle(shown_text(title, kSentenceChars));
    // Animations would make grabs and exports catch half-drawn bars.
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    // Axis and bar numbers grouped as everywhere else ("1,500,000", number_text.hpp).
    chart->setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
    chart->setLocalizeNumbers(true);
    return chart;
}

// Decimals for a linear axis up to `top`: none from 10 up ("1,500,000", not "1500000.0").
QString axis_format(double top) {
    return top >= 10 ? QStringLiteral("%.0f")
                     : (top >= 1 ? QStringLiteral("%.1f") : QStringLiteral("%.2f"));
}

} // namespace

QChart* bar_chart(const QString& title, const QStringList& categories,
                  const std::vector<BarSet>& sets, const QString& value_axis, ValueScale scale) {
    QChart* chart = new_chart(title);
    auto* series = new QBarSeries;
    double top = 0;
    double bottom = 0; // smallest positive value, for the log scale
    for (const BarSet& s : sets) {
        auto* set = new QBarSet(shown_text(s.label));
        set->append(s.values);
        for (double v : s.values) {
            top = std::max(top, v);
            if (v > 0)
                bottom = bottom > 0 ? std::min(bottom, v) : v;
        }
        series->append(set);
    }
    // Many narrow bars take their numbers upright, which needs more room above the tallest.
    const bool upright = categories.size() * static_cast<qsizetype>(sets.size()) > 8;
    const double headroom = upright ? 2.2 : 1.2;
    chart->addSeries(series);
    auto* x = new QBarCategoryAxis;
    for (const QString& c : categories) {
        // Categories are unique to the axis: two long names that elide alike stay two.
        // Qt Charts draws a category as rich text: "<32ns" vanished as a tag and
        // "&counter->lock" lost its '&', so the name goes in escaped.
        const QString name = shown_text(c).toHtmlEscaped();
        QString shown = name;
        for (int n = 2; x->categories().contains(shown); ++n)
            shown = QStringLiteral("%1 (%2)").arg(name).arg(n);
        x->append(shown);
    }
    // Field names stay whole when there are a dozen of them; upright, the first one does not
    // reach past the chart's left edge (at -40 degrees it was dropped).
    x->setLabelsAngle(-90);
    // Above the plot: upright names below it reached into a legend there. Qt Charts 6.4
    // reserves a little less than an upright name's length: a margin takes the rest.
    chart->legend()->setAlignment(Qt::AlignTop);
    QMargins margins = chart->margins();
    margins.setBottom(margins.bottom() + 16);
    chart->setMargins(margins);
    x->setTruncateLabels(false); // "memory...." names nothing; the plot gives way instead
    QAbstractAxis* y = nullptr;
    if (scale == ValueScale::log) {
        auto* log = new QLogValueAxis;
        log->setBase(10);
        log->setLabelFormat(bottom >= 1 ? QStringLiteral("%.0f") : QStringLiteral("%g"));
        // From the decade below the smallest bar, so every non-zero value shows.
        log->setRange(bottom > 0 ? std::pow(10.0, std::floor(std::log10(bottom))) : 1,
                      top > 0 ? top * (upright ? 8 : 2) : 10);
        y = log;
    } else {
        auto* linear = new QValueAxis;
        linear->setRange(0, top > 0 ? top * headroom : 1);
        linear->applyNiceNumbers();
        linear->setLabelFormat(axis_format(linear->max()));
        y = linear;
    }
    y->setTitleText(value_axis);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    // Every bar says its value, the tallest included: the axis left room above it. Set once
    // the series has its axes: Qt Charts 6.4 draws no label turned on before.
    for (QBarSet* set : series->barSets())
        set->setLabelColor(QColor(0x22, 0x22, 0x22));
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    // Four significant digits, and every digit of a whole number: 'g' at four turned counts
    // such as 1,716,000 into "1.716E+06".
    series->setLabelsPrecision(
        std::max(4, top >= 1 ? static_cast<int>(std::floor(std::log10(top))) + 1 : 0));
    series->setLabelsAngle(upright ? -90 : 0);
    series->setLabelsVisible(true);
    return chart;
}

QChart* field_chart(const QString& object, const QString& before, const QString& after,
                    const std::vector<analysis::FieldPair>& fields,
                    const std::optional<analysis::RateBasis>& basis) {
    QStringList categories;
    BarSet b{before, {}}, a{after, {}};
    for (const auto& f : fields) {
        categories << QString::fromStdString(f.label);
        b.values << f.before;
        a.values << f.after;
    }
    return bar_chart(
        QObject::tr("HITM per field of one object, %1 (%2)")
            .arg(shown_text(object), QString::fromStdString(analysis::rate_unit(basis))),
        categories, {b, a}, QString::fromStdString(analysis::hitm_axis_title(basis)));
}

QChart* lock_chart(const QString& before, const QString& after,
                   const std::vector<analysis::LockChange>& classes, std::size_t limit) {
    QStringList categories;
    BarSet b{before, {}}, a{after, {}};
    for (std::size_t i = 0; i < classes.size() && i < limit; ++i) {
        categories << QString::fromStdString(classes[i].name);
        b.values << classes[i].contentions_before.value_or(0);
        a.values << classes[i].contentions_after.value_or(0);
    }
    return bar_chart(QObject::tr("Contentions per lock class (log scale)"), categories, {b, a},
                     QObject::tr("contentions, raw"), ValueScale::log);
}

QChart* wait_chart(const QString& lock_class, const std::vector<analysis::HistogramBar>& bars) {
    QStringList labels;
    QList<double> counts;
    for (const auto& b : bars) {
        labels << QString::fromStdString(b.label);
        counts << b.count;
    }
    QChart* chart = bar_chart(
        QObject::tr("Wait times of %1 (log2 buckets, lower bound)").arg(shown_text(lock_class)),
        labels, {BarSet{QObject::tr("waits"), counts}}, QObject::tr("waits, raw"));
    // A bucket per power of two: upright labels would be elided to "…".
    for (QAbstractAxis* axis : chart->axes(Qt::Horizontal))
        axis->setLabelsAngle(-90);
    return chart;
}

QChart* scaling_chart(const QString& title, const std::vector<analysis::ScalingSeries>& series) {
    QChart* chart = new_chart(title);
    auto* x = new QValueAxis;
    x->setTitleText(QStringLiteral("threads"));
    x->setLabelFormat(QStringLiteral("%.0f")); // localized numbers take no %d of a double
    auto* y = new QValueAxis;
    y->setTitleText(QStringLiteral("M ops/s"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    int max_threads = 1;
    double top = 0;
    std::map<std::string, QColor> variant_colour;
    for (const analysis::ScalingSeries& s : series) {
        const QString name = shown_text(s.name);
        auto* median = new QLineSeries;
        median->setName(name);
        auto* low = new QLineSeries;
        auto* high = new QLineSeries;
        auto* marks = new QScatterSeries;
        marks->setMarkerSize(7);
        for (const analysis::ScalingPoint& p : s.points) {
            median->append(p.threads, p.median / 1e6);
            marks->append(p.threads, p.median / 1e6);
            low->append(p.threads, p.min / 1e6);
            high->append(p.threads, p.max / 1e6);
            max_threads = std::max(max_threads, p.threads);
            top = std::max(top, p.max / 1e6);
        }
        // The band shows the spread across repeats; it has no legend entry of its own.
        auto* band = new QAreaSeries(high, low);
        // QAreaSeries does not own its boundary series: give them to it, so they go with it.
        high->setParent(band);
        low->setParent(band);
        chart->addSeries(band);
        chart->addSeries(median);
        chart->addSeries(marks);
        // One colour per variant; measured solid, traced ops/s (probes recording, slower than
        // the machine) dotted, simulated (another machine, virtual time) dashed, so the curves
        // of one variant are told apart by where their numbers come from.
        // The theme's colours cycle per series, and a variant draws several, so two variants
        // shared a colour: each variant takes the next of ten distinct ones (Tableau 10).
        static const std::array<QColor, 10> palette{
            QColor(0x4e79a7), QColor(0xf28e2b), QColor(0xe15759), QColor(0x76b7b2),
            QColor(0x59a14f), QColor(0xedc948), QColor(0xb07aa1), QColor(0xff9da7),
            QColor(0x9c755f), QColor(0xbab0ac)};
        const auto colour =
            variant_colour.try_emplace(s.variant, palette[variant_colour.size() % palette.size()])
                .first->second;
        median->setColor(colour);
        // Thicker than the default, so that a dot and a dash differ in the legend too.
        QPen pen = median->pen();
        pen.setWidthF(2.5);
        if (s.source != store::Source::measured)
            pen.setStyle(s.source == store::Source::simulated ? Qt::DashLine : Qt::DotLine);
        median->setPen(pen);
        if (s.stops_growing_at) {
            median->setName(
                QStringLiteral("%1: stops growing at %2").arg(name).arg(*s.stops_growing_at));
            auto* knee = new QScatterSeries;
            knee->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
            knee->setMarkerSize(13);
            knee->setColor(Qt::transparent);
            knee->setBorderColor(median->color());
            for (const analysis::ScalingPoint& p : s.points)
                if (p.threads == *s.stops_growing_at)
                    knee->append(p.threads, p.median / 1e6);
            chart->addSeries(knee);
            knee->attachAxis(x);
            knee->attachAxis(y);
            chart->legend()->markers(knee).first()->setVisible(false);
        }
        QColor c = median->color();
        c.setAlpha(60);
        band->setColor(c);
        band->setBorderColor(c);
        marks->setColor(median->color());
        for (QAbstractSeries* a :
             {static_cast<QAbstractSeries*>(band), static_cast<QAbstractSeries*>(median),
              static_cast<QAbstractSeries*>(marks)}) {
            a->attachAxis(x);
            a->attachAxis(y);
        }
        chart->legend()->markers(band).first()->setVisible(false);
        chart->legend()->markers(marks).first()->setVisible(false);
    }
    x->setRange(0, max_threads + 1);
    // Ticks on round thread counts (a machine's 72 CPUs on multiples of 8), not 17 even cuts.
    int step = 1;
    while (max_threads / step > 12)
        step *= 2;
    x->setTickType(QValueAxis::TicksDynamic);
    x->setTickAnchor(0);
    x->setTickInterval(step);
    // Long names (source, machine, where a curve stops) need a column, not a row. Each entry
    // is a stroke of its curve's own pen, so a dotted (traced) or dashed (simulated) curve
    // shows its dash there.
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    y->setRange(0, top > 0 ? top * 1.15 : 1);
    y->applyNiceNumbers();
    y->setLabelFormat(axis_format(y->max()));
    return chart;
}

QChartView* chart_view(QChart* chart, QWidget* parent) {
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    return view;
}

bool save_png(QWidget* widget, const QString& path) {
    return widget->grab().save(path, "PNG");
}

bool save_svg(QChartView* view, const QString& path) {
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(view->size());
    svg.setViewBox(QRect(QPoint(0, 0), view->size()));
    svg.setTitle(view->chart()->title());
    QPainter painter;
    if (!painter.begin(&svg))
        return false;
    view->render(&painter);
    return painter.end();
}

} // namespace hitmap::gui
