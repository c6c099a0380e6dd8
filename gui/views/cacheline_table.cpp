#include "gui/views/cacheline_table.hpp"

#include "gui/models/db_loader.hpp"
#include "gui/models/run_quality.hpp"
#include "gui/views/table_view.hpp"

#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>

namespace hitmap::gui {

CachelineTable::CachelineTable(QWidget* parent)
    : QWidget(parent)
    , header_(new QLabel(this))
    , table_(new DataTable(tr("Filter by object or field name…"), this)) {
    header_->setTextFormat(Qt::RichText);
    header_->setWordWrap(true); // a note of a few hundred characters must not widen the window
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
    QString head = run_header(detail->run, detail->c2c);
    header_->setToolTip(run_tooltip(detail->run));
    if (!detail->c2c) {
        rows_.clear();
        table_->model()->clear();
        header_->setText(head);
        return;
    }
    rows_ = analysis::cacheline_rows(*detail->c2c);
    if (rows_.empty())
        head += tr(" — no line moved between caches (one thread cannot contend)");
    header_->setText(head);
    table_->model()->setRows(rows_, line_columns(report::rate_basis(*detail->c2c)));
    table_->fitColumns();
}

void CachelineTable::selectRank(int row) {
    table_->selectSourceRow(row);
}

bool CachelineTable::selectLine(const c2c::LineKey& line) {
    const auto it = std::find_if(rows_.begin(), rows_.end(),
                                 [&](const analysis::CachelineRow& r) { return r.key == line; });
    if (it == rows_.end())
        return false;
    selectRank(static_cast<int>(it - rows_.begin()));
    return true;
}

} // namespace hitmap::gui
