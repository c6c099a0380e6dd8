#pragma once
// Shown instead of the views when the database is missing or holds no runs: how to collect,
// and a button that opens the run dialog.
#include <QWidget>

class QLabel;

namespace hitmap::gui {

class EmptyState : public QWidget {
    Q_OBJECT
public:
    explicit EmptyState(QWidget* parent = nullptr);
    void setPath(const QString& path, bool exists);

signals:
    void collectRequested();

private:
    QLabel* text_;
};

} // namespace hitmap::gui
