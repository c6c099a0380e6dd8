#include "gui/views/line_detail_view.hpp"

#include "gui/models/c2c_rows.hpp"
#include "gui/models/db_loader.hpp"
#include "gui/models/strip_layout.hpp"
#include "gui/views/strip_widget.hpp"
#include "gui/views/table_view.hpp"

#include <QCheckBox>
#include <QTabWidget>
#include <QVBoxLayout>

namespace hitmap::gui {

LineDetailView::LineDetailView(QWidget* parent)
    : QWidget(parent)
    , strip_(new StripWidget(this))
    , pair_lines_(new QCheckBox(tr("128 bytes (adjacent-line pair)"), this))
    , tabs_(new QTabWidget(this))
    , offsets_(new DataTable(tr("Filter fields…"), this))
    , pairs_(new DataTable(tr("Filter fields…"), this))
    , cpus_(new DataTable(tr("Filter CPUs…"), this)) {
    tabs_->addTab(offsets_, tr("Offsets"));
    tabs_->addTab(pairs_, tr("Who invalidates whom"));
    tabs_->addTab(cpus_, tr("Per CPU"));
    connect(pair_lines_, &QCheckBox::toggled, this, &LineDetailView::refresh);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(strip_);
    layout->addWidget(pair_lines_);
    layout->addWidget(tabs_, 1);
}

void LineDetailView::setLine(std::shared_ptr<const RunDetail> detail, const c2c::LineKey& line) {
    detail_ = std::move(detail);
    line_ = line;
    refresh();
}

void LineDetailView::clear() {
    detail_.reset();
    strip_->setStrip(std::nullopt);
    offsets_->model()->clear();
    pairs_->model()->clear();
    cpus_->model()->clear();
}

void LineDetailView::refresh() {
    if (!detail_ || !detail_->c2c)
        return;
    const store::C2cData& data = *detail_->c2c;
    strip_->setStrip(compute_strip(data, line_, 1.0, pair_lines_->isChecked() ? 128 : 64));
    offsets_->model()->setRows(offset_rows(data, line_), offset_columns());
    pairs_->model()->setRows(pair_rows(data, line_), pair_columns());
    cpus_->model()->setRows(cpu_rows(data, line_), cpu_columns());
    for (DataTable* t : {offsets_, pairs_, cpus_})
        t->fitColumns();
}

} // namespace hitmap::gui
