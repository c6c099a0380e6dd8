#pragma once
// The Shared Data Cache Line Table of one run, ranked by HITM; picking a row picks a line.
#include "gui/models/c2c_rows.hpp"

#include <QWidget>
#include <memory>

class QLabel;

namespace hitmap::analysis {
struct RunDetail;
}

namespace hitmap::gui {

class DataTable;
using analysis::RunDetail;

class CachelineTable : public QWidget {
    Q_OBJECT
public:
    explicit CachelineTable(QWidget* parent = nullptr);
    void setRun(std::shared_ptr<const RunDetail> detail);
    DataTable* table() const { return table_; }
    // Selects the line of rank `row` (0 = most HITM).
    void selectRank(int row);
    // Selects `line`; false when the table has no row of it.
    bool selectLine(const c2c::LineKey& line);

signals:
    void lineSelected(const hitmap::c2c::LineKey& line);

private:
    QLabel* header_;
    DataTable* table_;
    std::vector<analysis::CachelineRow> rows_;
};

} // namespace hitmap::gui
