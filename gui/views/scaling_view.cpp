#include "gui/views/scaling_view.hpp"

#include "gui/charts/chart_builder.hpp"
#include "gui/views/picker_item.hpp"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <set>

namespace hitmap::gui {

ScalingView::ScalingView(QWidget* parent)
    : QWidget(parent)
    , workload_(new QComboBox(this))
    , view_(chart_view(scaling_chart(tr("Scaling"), {}), this)) {
    connect(workload_, &QComboBox::currentIndexChanged, this, &ScalingView::rebuild);
    auto* pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("Workload:"), this));
    pick->addWidget(workload_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(pick);
    layout->addWidget(view_, 1);
}

void ScalingView::setRuns(std::vector<store::RunRecord> runs) {
    runs_ = std::move(runs);
    std::set<QString> workloads;
    for (const auto& r : runs_)
        workloads.insert(QString::fromStdString(r.workload));
    {
        const QSignalBlocker block(workload_);
        const QVariant keep = workload_->currentData();
        workload_->clear();
        for (const QString& w : workloads)
            add_picker_item(workload_, w, w); // the name whole as the data: it selects the runs
        workload_->setCurrentIndex(std::max(0, workload_->findData(keep)));
    }
    rebuild();
}

bool ScalingView::showWorkload(const QString& workload) {
    const int index = workload_->findData(workload);
    if (index >= 0)
        workload_->setCurrentIndex(index); // rebuilds when it changes
    return index >= 0;
}

QString ScalingView::workload() const {
    return workload_->currentData().toString();
}

void ScalingView::rebuild() {
    const std::string workload = workload_->currentData().toString().toStdString();
    QChart* old = view_->chart();
    view_->setChart(scaling_chart(tr("%1: throughput vs threads (median, band = min..max over "
                                     "repeats)")
                                      .arg(workload_->currentText()),
                                  analysis::scaling_series(runs_, workload)));
    delete old; // setChart releases the old chart to us
}

} // namespace hitmap::gui
