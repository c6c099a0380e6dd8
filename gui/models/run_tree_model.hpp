#pragma once
// The run browser's tree: workload -> variant -> runs, with the run's numbers as columns.
#include "collector/store/records.hpp"

#include <QAbstractItemModel>
#include <cstdint>
#include <vector>

namespace hitmap::gui {

class RunTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    // Source: where the run's figures come from (measured, traced, simulated, imported), its
    // own column so that a filter can pick one and ops/s of different sources are told apart.
    enum Column { Name, Source, Threads, Duration, OpsPerSecond, C2cSource, Status, ColumnCount };
    static constexpr int RunIdRole = Qt::UserRole + 10; // qint64 on run rows, invalid elsewhere

    using QAbstractItemModel::QAbstractItemModel;

    void setRuns(std::vector<store::RunRecord> runs);
    const std::vector<store::RunRecord>& runs() const { return runs_; }
    // The index of a run's row (column 0), invalid when absent.
    QModelIndex indexOfRun(std::int64_t run_id) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    // Nodes live in one vector; an index's internalId is its node's position. Node 0 is the
    // invisible root.
    struct Node {
        int parent = -1;
        int row = 0; // position among the parent's children
        std::vector<int> children;
        QString label;
        int run = -1; // into runs_, for run rows
    };
    const Node& node(const QModelIndex& index) const;
    int addChild(int parent, QString label, int run = -1);

    std::vector<store::RunRecord> runs_;
    std::vector<Node> nodes_{Node{}};
};

} // namespace hitmap::gui
