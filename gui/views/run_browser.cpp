#include "gui/views/run_browser.hpp"

#include "gui/models/run_tree_model.hpp"

#include <QHeaderView>
#include <QTreeView>
#include <QVBoxLayout>

namespace hitmap::gui {

RunBrowser::RunBrowser(QWidget* parent)
    : QWidget(parent)
    , model_(new RunTreeModel(this))
    , view_(new QTreeView(this)) {
    view_->setModel(model_);
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
    layout->addWidget(view_);
}

void RunBrowser::selectRun(qint64 run_id) {
    const QModelIndex i = model_->indexOfRun(run_id);
    if (i.isValid())
        view_->setCurrentIndex(i);
}

} // namespace hitmap::gui
