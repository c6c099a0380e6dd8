#include "gui/models/run_tree_model.hpp"

#include "gui/models/number_text.hpp"
#include "gui/models/run_quality.hpp"
#include "gui/models/shown_text.hpp"
#include "gui/models/unknown_text.hpp"

#include <QBrush>
#include <QFont>
#include <QPalette>
#include <map>

namespace hitmap::gui {

namespace {

QString ops_text(double ops_per_s) {
    if (ops_per_s >= 1e6)
        return QStringLiteral("%1 M").arg(ops_per_s / 1e6, 0, 'f', 2);
    if (ops_per_s >= 1e3)
        return QStringLiteral("%1 k").arg(ops_per_s / 1e3, 0, 'f', 2);
    return number_text(ops_per_s, 0);
}

} // namespace

void RunTreeModel::setRuns(std::vector<store::RunRecord> runs) {
    beginResetModel();
    runs_ = std::move(runs);
    nodes_.assign(1, Node{});
    // std::map keeps workloads and variants in a stable, readable order.
    std::map<std::string, std::map<std::string, std::vector<int>>> grouped;
    for (std::size_t i = 0; i < runs_.size(); ++i)
        grouped[runs_[i].workload][runs_[i].variant].push_back(static_cast<int>(i));
    for (const auto& [workload, variants] : grouped) {
        const int w = addChild(0, QString::fromStdString(workload));
        for (const auto& [variant, ids] : variants) {
            const int v = addChild(w, QString::fromStdString(variant));
            for (int r : ids)
                addChild(v, QStringLiteral("run %1").arg(runs_[static_cast<std::size_t>(r)].id), r);
        }
    }
    endResetModel();
}

int RunTreeModel::addChild(int parent, QString label, int run) {
    const int id = static_cast<int>(nodes_.size());
    Node n;
    n.parent = parent;
    n.row = static_cast<int>(nodes_[static_cast<std::size_t>(parent)].children.size());
    n.label = std::move(label);
    n.run = run;
    nodes_.push_back(std::move(n));
    nodes_[static_cast<std::size_t>(parent)].children.push_back(id);
    return id;
}

const RunTreeModel::Node& RunTreeModel::node(const QModelIndex& index) const {
    return nodes_[index.isValid() ? static_cast<std::size_t>(index.internalId()) : 0];
}

QModelIndex RunTreeModel::indexOfRun(std::int64_t run_id) const {
    for (std::size_t i = 1; i < nodes_.size(); ++i) {
        const Node& n = nodes_[i];
        if (n.run >= 0 && runs_[static_cast<std::size_t>(n.run)].id == run_id)
            return createIndex(n.row, 0, static_cast<quintptr>(i));
    }
    return {};
}

QModelIndex RunTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent))
        return {};
    return createIndex(row, column,
                       static_cast<quintptr>(node(parent).children[static_cast<std::size_t>(row)]));
}

QModelIndex RunTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid())
        return {};
    const int p = node(child).parent;
    if (p <= 0)
        return {};
    return createIndex(nodes_[static_cast<std::size_t>(p)].row, 0, static_cast<quintptr>(p));
}

int RunTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return static_cast<int>(node(parent).children.size());
}

int RunTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant RunTreeModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node& n = node(index);
    if (n.run < 0) {
        if (index.column() != Name)
            return {};
        // A workload or variant: shown bounded, whole on hover.
        if (role == Qt::DisplayRole)
            return shown_text(n.label);
        if (role == Qt::ToolTipRole)
            return elided_tooltip(n.label);
        return {};
    }
    const store::RunRecord& r = runs_[static_cast<std::size_t>(n.run)];
    const bool incomplete = r.status != store::RunStatus::complete;
    switch (role) {
    case RunIdRole:
        return QVariant::fromValue<qint64>(r.id);
    case Qt::ForegroundRole:
        return incomplete ? QVariant(QBrush(Qt::darkRed)) : QVariant();
    case Qt::FontRole: {
        QFont f;
        f.setItalic(incomplete);
        return incomplete ? QVariant(f) : QVariant();
    }
    case Qt::ToolTipRole:
        return run_tooltip(r);
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case Name:
        return n.label;
    case Source:
        return QString::fromUtf8(store::to_string(r.source).data());
    case Threads:
        return text_or_unknown(r.threads, [](int t) { return QString::number(t); });
    case Duration:
        return text_or_unknown(r.duration_s,
                               [](double s) { return QStringLiteral("%1 s").arg(s, 0, 'g', 3); });
    case OpsPerSecond:
        return text_or_unknown(r.ops_per_s, ops_text);
    case C2cSource:
        return r.c2c_source ? QString::fromUtf8(store::to_string(*r.c2c_source).data())
                            : unknown_qtext();
    case Status:
        return QString::fromUtf8(store::to_string(r.status).data(),
                                 static_cast<qsizetype>(store::to_string(r.status).size())) +
               (incomplete ? QStringLiteral(" (incomplete)") : QString());
    default:
        return {};
    }
}

QVariant RunTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* const titles[] = {"Run",   "Source", "Threads", "Duration",
                                         "ops/s", "c2c",    "Status"};
    return section >= 0 && section < ColumnCount ? QVariant(tr(titles[section])) : QVariant();
}

} // namespace hitmap::gui
