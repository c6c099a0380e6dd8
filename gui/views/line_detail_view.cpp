#include "gui/views/line_detail_view.hpp"

#include "gui/models/c2c_rows.hpp"
#include "gui/models/db_loader.hpp"
#include "gui/models/strip_layout.hpp"
#include "gui/views/strip_widget.hpp"
#include "gui/views/table_view.hpp"

#include <QCheckBox>
#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>

namespace hitmap::gui {

LineDetailView::LineDetailView(QWidget* parent)
    : QWidget(parent)
    , strip_(new StripWidget(this))
    , pair_lines_(new QCheckBox(tr("128 bytes (adjacent-line pair)"), this))
    , summary_(new QLabel(this))
    , tabs_(new QTabWidget(this))
    , offsets_(new DataTable(tr("Filter fields…"), this))
    , code_(new DataTable(tr("Filter symbols, sources…"), this))
    , access_(new DataTable(tr("Filter fields…"), this))
    , pairs_(new DataTable(tr("Filter fields…"), this))
    , cpus_(new DataTable(tr("Filter CPUs…"), this)) {
    tabs_->addTab(offsets_, tr("Offsets"));
    tabs_->addTab(code_, tr("Code"));
    tabs_->addTab(access_, tr("Reads/writes"));
    tabs_->addTab(pairs_, tr("Who invalidates whom"));
    tabs_->addTab(cpus_, tr("Per CPU"));
    connect(pair_lines_, &QCheckBox::toggled, this, &LineDetailView::refresh);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(strip_);
    layout->addWidget(pair_lines_);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);
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
    summary_->clear();
    offsets_->model()->clear();
    code_->model()->clear();
    access_->model()->clear();
    pairs_->model()->clear();
    cpus_->model()->clear();
}

void LineDetailView::refresh() {
    if (!detail_ || !detail_->c2c)
        return;
    const store::C2cData& data = *detail_->c2c;
    strip_->setStrip(compute_strip(data, line_, 1.0, pair_lines_->isChecked() ? 128 : 64));
    const Basis basis = analysis::rate_basis(data);
    offsets_->model()->setRows(offset_rows(data, line_), offset_columns(basis));
    pairs_->model()->setRows(pair_rows(data, line_), pair_columns(basis));
    cpus_->model()->setRows(cpu_rows(data, line_), cpu_columns(basis));
    const auto found = detail_->drilldown.find(line_.address);
    const analysis::LineDrilldown none{};
    const analysis::LineDrilldown& d = found == detail_->drilldown.end() ? none : found->second;
    std::optional<std::uint64_t> hitm;
    for (const auto& l : data.result.lines)
        if (l.line == line_)
            hitm = l.counts.hitm();
    summary_->setText(drilldown_summary(d, analysis::hitm_share(hitm, data)));
    code_->model()->setRows(d.code, code_columns());
    access_->model()->setRows(access_rows(data, *detail_, line_), access_columns());
    // A capture's code is what one drills into first; a replay has none (its pairs say who).
    tabs_->setTabEnabled(tabs_->indexOf(code_), !d.code.empty());
    if (!d.code.empty() && tabs_->currentWidget() == offsets_)
        tabs_->setCurrentWidget(code_);
    for (DataTable* t : {offsets_, code_, access_, pairs_, cpus_})
        t->fitColumns();
}

} // namespace hitmap::gui
