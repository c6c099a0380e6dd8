#include "gui/views/locks_view.hpp"

#include "gui/charts/chart_builder.hpp"
#include "gui/models/db_loader.hpp"
#include "gui/models/lock_rows.hpp"
#include "gui/models/run_quality.hpp"
#include "gui/models/shown_text.hpp"
#include "gui/views/table_view.hpp"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace hitmap::gui {

LocksView::LocksView(QWidget* parent)
    : QWidget(parent)
    , header_(new QLabel(this))
    , pages_(new QStackedWidget(this))
    , no_locks_(new QLabel(this))
    , classes_(new DataTable(tr("Filter lock classes…"), this))
    , histogram_(chart_view(wait_chart({}, {}), this))
    , points_(new DataTable(tr("Filter call sites…"), this)) {
    header_->setTextFormat(Qt::RichText);
    header_->setWordWrap(true);
    connect(classes_, &DataTable::currentSourceRowChanged, this, &LocksView::showClass);

    auto* bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(histogram_);
    bottom->addWidget(points_);
    bottom->setSizes({750, 450});
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(classes_);
    split->addWidget(bottom);
    // The wait histogram's numbers stand upright above its bars: it needs the height more
    // than the class table, which scrolls (at 1366x768 the tallest bar's number was cut).
    split->setSizes({300, 500});

    no_locks_->setAlignment(Qt::AlignCenter);
    no_locks_->setWordWrap(true);
    no_locks_->setTextFormat(Qt::RichText);
    pages_->addWidget(split);
    pages_->addWidget(no_locks_);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(header_);
    layout->addWidget(pages_, 1);
}

bool LocksView::showingNoLocks() const {
    return pages_->currentWidget() == no_locks_;
}

void LocksView::setRun(std::shared_ptr<const RunDetail> detail) {
    run_ = std::move(detail);
    const store::RunRecord& r = run_->run;
    QString head =
        tr("<b>Run %1</b>: %2 %3 — ")
            .arg(r.id)
            .arg(shown_text(r.workload).toHtmlEscaped(), shown_text(r.variant).toHtmlEscaped());
    header_->setToolTip(run_tooltip(r));
    rows_ = lock_rows(run_->locks);
    if (rows_.empty())
        head += tr("no lock statistics (the workload takes no instrumented lock)");
    else
        head += tr("%n lock class row(s), sorted by contentions as /proc/lock_stat", nullptr,
                   static_cast<int>(rows_.size()));
    if (run_->kernel_locks_unavailable)
        head +=
            tr("<br>Kernel lock waits: <i>%1</i>")
                .arg(shown_text(*run_->kernel_locks_unavailable, kSentenceChars).toHtmlEscaped());
    header_->setText(head);
    no_locks_->setText(
        tr("<h3>No lock statistics in run %1</h3><p>Its workload takes no lock that hitmap "
           "instruments, so there is no lock class, wait time or call site to show.</p>"
           "<p>Runs of the lock workloads (a spinlock or mutex per counter), and lock_stat or "
           "perf lock reports imported with File → Import, have them.</p>")
            .arg(r.id));
    pages_->setCurrentWidget(rows_.empty() ? static_cast<QWidget*>(no_locks_) : pages_->widget(0));
    classes_->model()->setRows(rows_, lock_columns());
    classes_->fitColumns();
    if (rows_.empty())
        showClass(-1);
    else
        classes_->selectSourceRow(0);
}

void LocksView::selectRow(int source_row) {
    classes_->selectSourceRow(source_row);
}

void LocksView::showClass(int source_row) {
    QChart* old = histogram_->chart();
    if (source_row < 0 || source_row >= static_cast<int>(rows_.size())) {
        histogram_->setChart(wait_chart({}, {}));
        points_->model()->clear();
    } else {
        const LockRow& row = rows_[static_cast<std::size_t>(source_row)];
        const store::LockData& table = run_->locks[row.table];
        const locks::LockClassStats& cls = table.report.classes[row.cls];
        const auto h = table.histograms.find(cls.name);
        histogram_->setChart(wait_chart(row.name, h == table.histograms.end()
                                                      ? std::vector<analysis::HistogramBar>{}
                                                      : analysis::histogram_bars(h->second)));
        points_->model()->setRows(lock_point_rows(cls), lock_point_columns());
        points_->fitColumns();
    }
    delete old; // setChart hands the old chart back to us
}

} // namespace hitmap::gui
