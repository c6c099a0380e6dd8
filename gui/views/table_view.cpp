#include "gui/views/table_view.hpp"

#include "gui/models/table_model.hpp"
#include "gui/views/heat_bar_delegate.hpp"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace hitmap::gui {

DataTable::DataTable(const QString& filter_hint, QWidget* parent)
    : QWidget(parent)
    , model_(new TableModel(this))
    , proxy_(new QSortFilterProxyModel(this))
    , filter_(new QLineEdit(this))
    , view_(new QTableView(this)) {
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(SortRole);
    proxy_->setFilterKeyColumn(-1); // any column: object names, field names, CPUs
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    filter_->setPlaceholderText(filter_hint);
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);

    view_->setModel(proxy_);
    view_->setItemDelegate(new HeatBarDelegate(view_));
    view_->setSortingEnabled(true);
    view_->sortByColumn(-1, Qt::AscendingOrder); // keep the model's ranking until asked
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setAlternatingRowColors(true);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(22);
    view_->horizontalHeader()->setStretchLastSection(true);
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                emit currentSourceRowChanged(current.isValid() ? proxy_->mapToSource(current).row()
                                                               : -1);
            });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(filter_);
    layout->addWidget(view_);
}

int DataTable::currentSourceRow() const {
    const QModelIndex i = view_->currentIndex();
    return i.isValid() ? proxy_->mapToSource(i).row() : -1;
}

void DataTable::selectSourceRow(int row) {
    const QModelIndex i = proxy_->mapFromSource(model_->index(row, 0));
    if (i.isValid())
        view_->setCurrentIndex(i);
}

void DataTable::fitColumns() {
    view_->resizeColumnsToContents();
}

} // namespace hitmap::gui
