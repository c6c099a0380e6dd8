#include "gui/views/compare_view.hpp"

#include "collector/analysis/comparison.hpp"
#include "collector/analysis/rate.hpp"
#include "collector/report/report_tables.hpp"
#include "gui/charts/chart_builder.hpp"
#include "gui/models/db_loader.hpp"
#include "gui/models/lock_rows.hpp"
#include "gui/models/number_text.hpp"
#include "gui/models/shown_text.hpp"
#include "gui/models/table_model.hpp"
#include "gui/models/unknown_text.hpp"
#include "gui/views/picker_item.hpp"
#include "gui/views/strip_grid.hpp"
#include "gui/views/table_view.hpp"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace hitmap::gui {

namespace {

// How the reports name a run (report::run_label), whole: the pickers and the pictures bound it.
QString label_of(const store::RunRecord& r) {
    return QString::fromStdString(report::run_label(r));
}

// A chart's legend has little room: the workload only where the pair's two differ.
std::pair<QString, QString> legend_labels(const store::RunRecord& b, const store::RunRecord& a) {
    const bool both = b.workload != a.workload;
    return {QString::fromStdString(report::run_label(b, both)),
            QString::fromStdString(report::run_label(a, both))};
}

// "traced, software c2c": what made a run's throughput and its cacheline tables.
QString source_text(const store::RunRecord& r) {
    const QString ops = QString::fromUtf8(store::to_string(r.source).data());
    return r.c2c_source ? QStringLiteral("%1, %2 c2c")
                              .arg(ops, QString::fromUtf8(store::to_string(*r.c2c_source).data()))
                        : ops;
}

// The source goes with the figure: traced ops/s are not comparable with measured ones.
QString ops_text(const store::RunRecord& r) {
    return text_or_unknown(
               r.ops_per_s,
               [](double ops) { return QStringLiteral("%1 M ops/s").arg(ops / 1e6, 0, 'f', 2); }) +
           QStringLiteral(" (%1)").arg(QString::fromUtf8(store::to_string(r.source).data()));
}

struct PredictionCells {
    QString object, field;
    std::optional<double> recorded, predicted;
    std::optional<double> measured;
};

std::vector<Column<PredictionCells>> prediction_columns() {
    const auto num = [](double v) { return number_text(v, 2); };
    return {
        {QStringLiteral("Object"), [](const PredictionCells& r) { return r.object; }},
        {QStringLiteral("Field"), [](const PredictionCells& r) { return r.field; }},
        {QStringLiteral("Recorded HITM/1k"),
         [](const PredictionCells& r) { return variant_or_unknown(r.recorded); },
         [num](const PredictionCells& r) { return text_or_unknown(r.recorded, num); }},
        {QStringLiteral("Predicted HITM/1k"),
         [](const PredictionCells& r) { return variant_or_unknown(r.predicted); },
         [num](const PredictionCells& r) { return text_or_unknown(r.predicted, num); },
         {},
         true},
        {QStringLiteral("Measured HITM/1k"),
         [](const PredictionCells& r) { return variant_or_unknown(r.measured); },
         [num](const PredictionCells& r) { return text_or_unknown(r.measured, num); },
         {},
         true},
    };
}

} // namespace

CompareView::CompareView(QWidget* parent)
    : QWidget(parent)
    , before_(new QComboBox(this))
    , after_(new QComboBox(this))
    , summary_(new QLabel(this))
    , strips_(new StripGrid(this))
    , chart_view_(chart_view(field_chart({}, {}, {}, {}, std::nullopt), this))
    , prediction_summary_(new QLabel(this))
    , predictions_(new DataTable(tr("Filter objects or fields…"), this))
    , sections_(new QTabWidget(this))
    , lock_classes_(new DataTable(tr("Filter lock classes…"), this))
    , lock_chart_(chart_view(bar_chart(tr("Contentions per lock class"), {}, {}, tr("contentions")),
                             this)) {
    auto* pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("Before:"), this));
    pick->addWidget(before_, 1);
    pick->addWidget(new QLabel(tr("After:"), this));
    pick->addWidget(after_, 1);
    for (QComboBox* c : {before_, after_}) {
        // Sized by the layout, not by the longest run label.
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(20);
        connect(c, &QComboBox::currentIndexChanged, this, &CompareView::requestCurrent);
    }
    summary_->setTextFormat(Qt::RichText);
    summary_->setWordWrap(true); // an object's name must not widen the window
    prediction_summary_->setWordWrap(true);

    auto* prediction_box = new QWidget(this);
    auto* prediction_layout = new QVBoxLayout(prediction_box);
    prediction_layout->setContentsMargins(0, 0, 0, 0);
    prediction_layout->addWidget(prediction_summary_);
    prediction_layout->addWidget(predictions_);

    auto* bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(chart_view_);
    bottom->addWidget(prediction_box);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    // Even: the chart draws a dozen fields in half the width, and the prediction table needs
    // its three numbers beside object and field (at 600:400 they were scrolled off).
    bottom->setSizes({500, 500});

    // The strips scroll: a struct touched on 19 lines is 19 strips of 96 pixels, which made
    // the window taller than a laptop's screen.
    auto* strips_scroll = new QScrollArea(this);
    strips_scroll->setWidgetResizable(true);
    strips_scroll->setFrameShape(QFrame::NoFrame);
    strips_scroll->setWidget(strips_);
    auto* cachelines = new QSplitter(Qt::Vertical, this);
    cachelines->addWidget(strips_scroll);
    cachelines->addWidget(bottom);
    cachelines->setStretchFactor(1, 1);
    cachelines->setSizes({260, 500});
    auto* locks = new QSplitter(Qt::Horizontal, this);
    locks->addWidget(lock_classes_);
    locks->addWidget(lock_chart_);
    locks->setSizes({550, 450});
    sections_->addTab(cachelines, tr("Cachelines"));
    sections_->addTab(locks, tr("Lock classes"));

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(pick);
    layout->addWidget(summary_);
    layout->addWidget(sections_, 1);
}

bool CompareView::showLocks(const CompareData* data) {
    auto rows = data ? analysis::lock_changes(data->before.locks, data->after.locks)
                     : std::vector<analysis::LockChange>{};
    QChart* old = lock_chart_->chart();
    const auto [before_label, after_label] =
        data ? legend_labels(data->before.run, data->after.run) : std::pair<QString, QString>{};
    lock_chart_->setChart(lock_chart(before_label, after_label, rows));
    delete old;
    const bool any = !rows.empty();
    lock_classes_->model()->setRows(std::move(rows), lock_compare_columns());
    lock_classes_->fitColumns();
    return any;
}

const std::vector<StripWidget*>& CompareView::strips() const {
    return strips_->strips();
}

void CompareView::setRuns(const std::vector<store::RunRecord>& runs) {
    const QSignalBlocker a(before_), b(after_);
    const QVariant keep_before = before_->currentData(), keep_after = after_->currentData();
    before_->clear();
    after_->clear();
    for (const auto& r : runs) {
        if (r.status != store::RunStatus::complete)
            continue;
        for (QComboBox* c : {before_, after_})
            add_picker_item(c, label_of(r), QVariant::fromValue<qint64>(r.id));
    }
    before_->setCurrentIndex(std::max(0, before_->findData(keep_before)));
    after_->setCurrentIndex(std::max(0, after_->findData(keep_after)));
    // The runs may be another database's, or the pair another one: ask again.
    requestCurrent();
}

void CompareView::setPair(qint64 before, qint64 after) {
    {
        const QSignalBlocker a(before_), b(after_);
        before_->setCurrentIndex(before_->findData(QVariant::fromValue(before)));
        after_->setCurrentIndex(after_->findData(QVariant::fromValue(after)));
    }
    requestCurrent();
}

std::optional<std::pair<qint64, qint64>> CompareView::pair() const {
    if (before_->currentIndex() < 0 || after_->currentIndex() < 0)
        return std::nullopt;
    return std::pair{before_->currentData().toLongLong(), after_->currentData().toLongLong()};
}

void CompareView::requestCurrent() {
    const auto p = pair();
    clearShown(p ? tr("Reading run %1 and run %2…").arg(p->first).arg(p->second) : QString());
    if (p)
        emit compareRequested(p->first, p->second);
}

void CompareView::clearShown(const QString& summary) {
    summary_->setText(summary);
    strips_->clear();
    QChart* old = chart_view_->chart();
    chart_view_->setChart(bar_chart(tr("HITM per field"), {}, {}, tr("HITM / 1k op")));
    delete old; // setChart releases the old chart to us
    prediction_summary_->clear();
    predictions_->model()->clear();
    showLocks(nullptr);
}

QString CompareView::summaryText() const {
    return summary_->text();
}

QString CompareView::predictionText() const {
    return prediction_summary_->text();
}

bool CompareView::setData(std::shared_ptr<const CompareData> data) {
    const store::RunRecord &b = data->before.run, &a = data->after.run;
    if (pair() != std::pair<qint64, qint64>{b.id, a.id})
        return false; // an answer to a pair no longer selected
    clearShown({});
    QString summary = tr("<b>Throughput</b>: %1 → %2").arg(ops_text(b), ops_text(a));
    if (const auto change = analysis::relative_change(b.ops_per_s, a.ops_per_s))
        summary += tr(" (%1%2%)")
                       .arg(*change >= 0 ? QStringLiteral("+") : QString())
                       .arg(*change * 100, 0, 'f', 1);

    if (b.source != a.source || b.c2c_source != a.c2c_source)
        summary += tr(" — <b><font color=\"#b00000\">different sources</font></b> (%1 against %2): "
                      "their figures do not compare")
                       .arg(source_text(b), source_text(a));

    const bool has_locks = showLocks(data.get());
    const store::C2cData* before = data->before.c2c ? &*data->before.c2c : nullptr;
    const store::C2cData* after = data->after.c2c ? &*data->after.c2c : nullptr;
    const engine::ObjectInfo* object = before ? analysis::hottest_object(*before) : nullptr;
    if (!before || !after || !object) {
        if (has_locks) {
            summary_->setText(summary + tr(" — lock statistics only (no cacheline data)"));
            sections_->setCurrentIndex(1);
        } else {
            summary_->setText(summary + tr(" — both runs need cacheline data to compare lines"));
        }
        return true;
    }
    summary_->setText(summary +
                      tr(" — object <b>%1</b>").arg(shown_text(object->name).toHtmlEscaped()));

    strips_->setRuns(*before, tr("<b>Before</b>: %1").arg(shown_text(label_of(b)).toHtmlEscaped()),
                     *after, tr("<b>After</b>: %1").arg(shown_text(label_of(a)).toHtmlEscaped()),
                     object->name);

    // Bars: fields with any HITM on either side, the hottest first, capped to stay legible.
    QChart* old = chart_view_->chart();
    const auto [before_label, after_label] = legend_labels(b, a);
    chart_view_->setChart(field_chart(
        QString::fromStdString(object->name), before_label, after_label,
        analysis::field_pairs(*before, *after, object->name, 12), analysis::rate_basis(*before)));
    delete old; // setChart releases the old chart to us

    if (!data->prediction) {
        prediction_summary_->setText(
            tr("No stored prediction for this pair. `hitmap-collect predict %1 --layout … "
               "--store` adds one.")
                .arg(b.id));
        return true;
    }
    const analysis::Prediction& p = *data->prediction;
    const auto rate = [](const std::optional<double>& v) {
        return text_or_unknown(v, [](double x) { return number_text(x, 1); });
    };
    prediction_summary_->setText(
        tr("Prediction run %1 (from run %2): the line holding usage has %3 HITM/1k op recorded → "
           "%4 predicted%5.")
            .arg(data->prediction_run->id)
            .arg(b.id)
            .arg(rate(p.usage_line_recorded.hitm), rate(p.usage_line_predicted.hitm))
            .arg(p.usage_line_measured ? tr(" → %1 measured in run %2")
                                             .arg(rate(p.usage_line_measured->hitm))
                                             .arg(a.id)
                                       : QString()));
    std::vector<PredictionCells> rows;
    for (const auto& r : p.rows)
        if (r.recorded.hitm.value_or(0) > 0 || r.predicted.hitm.value_or(0) > 0)
            rows.push_back({QString::fromStdString(r.object), QString::fromStdString(r.field),
                            r.recorded.hitm, r.predicted.hitm,
                            r.measured ? r.measured->hitm : std::nullopt});
    // The fields that cost most first, as the chart beside it orders them.
    std::stable_sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) {
        return x.recorded.value_or(0) > y.recorded.value_or(0);
    });
    predictions_->model()->setRows(std::move(rows), prediction_columns());
    predictions_->fitColumns();
    return true;
}

} // namespace hitmap::gui
