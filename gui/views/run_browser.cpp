#include "gui/views/run_browser.hpp"

#include "gui/models/run_tree_model.hpp"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

namespace hitmap::gui {

RunBrowser::RunBrowser(QWidget* parent)
    : QWidget(parent)
    , model_(new RunTreeModel(this))
    , proxy_(new QSortFilterProxyModel(this))
    , filter_(new QLineEdit(this))
    , view_(new QTreeView(this)) {
    proxy_->setSourceModel(model_);
    // A matching run keeps its workload and variant; a matching variant keeps its runs.
    proxy_->setRecursiveFilteringEnabled(true);
    proxy_->setAutoAcceptChildRows(true);
    proxy_->setFilterKeyColumn(-1);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    filter_->setPlaceholderText(tr("Filter runs: workload, variant, source…"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        proxy_->setFilterFixedString(text);
        view_->expandAll();
    });
    view_->setModel(proxy_);
    view_->setUniformRowHeights(true);
    view_->setAlternatingRowColors(true);
    connect(model_, &QAbstractItemModel::modelReset, this, [this] {
        view_->expandAll();
        for (int c = 0; c < RunTreeModel::ColumnCount; ++c)
            view_->resizeColumnToContents(c);
    });
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const QVariant id = current.siblingAtColumn(0).data(RunTreeModel::RunIdRole);
                if (id.isValid())
                    emit runSelected(id.toLongLong());
            });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(filter_);
    layout->addWidget(view_);
}

void RunBrowser::selectRun(qint64 run_id) {
    const QModelIndex i = proxy_->mapFromSource(model_->indexOfRun(run_id));
    if (i.isValid())
        view_->setCurrentIndex(i);
}

} // namespace hitmap::gui
