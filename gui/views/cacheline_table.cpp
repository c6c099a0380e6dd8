#include "gui/views/cacheline_table.hpp"

#include "gui/models/db_loader.hpp"
#include "gui/views/table_view.hpp"

#include <QLabel>
#include <QVBoxLayout>

namespace hitmap::gui {

CachelineTable::CachelineTable(QWidget* parent)
    : QWidget(parent)
    , header_(new QLabel(this))
    , table_(new DataTable(tr("Filter by object or field name…"), this)) {
    header_->setTextFormat(Qt::RichText);
    connect(table_, &DataTable::currentSourceRowChanged, this, [this](int row) {
        if (row >= 0 && row < static_cast<int>(rows_.size()))
            emit lineSelected(rows_[static_cast<std::size_t>(row)].key);
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(header_);
    layout->addWidget(table_);
}

void CachelineTable::setRun(std::shared_ptr<const RunDetail> detail) {
    const store::RunRecord& r = detail->run;
    QString head = tr("<b>Run %1</b>: %2 %3, %4 threads, %5 s")
                       .arg(r.id)
                       .arg(QString::fromStdString(r.workload), QString::fromStdString(r.variant))
                       .arg(r.threads)
                       .arg(r.duration_s, 0, 'f', 2);
    if (!detail->c2c) {
        rows_.clear();
        table_->model()->clear();
        header_->setText(head + tr(" — no cacheline data (collected with --c2c off)"));
        return;
    }
    head += tr(" — %1 traced ops, c2c source: %2")
                .arg(detail->c2c->trace.traced_ops)
                .arg(QString::fromStdString(r.c2c_source.value_or("?")));
    rows_ = line_rows(*detail->c2c);
    if (rows_.empty())
        head += tr(" — no line moved between caches (one thread cannot contend)");
    header_->setText(head);
    table_->model()->setRows(rows_, line_columns());
    table_->fitColumns();
}

void CachelineTable::selectRank(int row) {
    table_->selectSourceRow(row);
}

} // namespace hitmap::gui
