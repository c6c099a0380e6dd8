#pragma once
// Help → Machine capabilities…: runs `hitmap-collect doctor --json` and shows its rows.
#include <QDialog>
#include <QProcess>

class QLabel;
class QTableView;

namespace hitmap::gui {

class TableModel;

class DoctorDialog : public QDialog {
    Q_OBJECT
public:
    explicit DoctorDialog(const QString& collector, QWidget* parent = nullptr);

    TableModel* model() const { return model_; }
    QLabel* status() const { return status_; }

signals:
    void reportShown(bool ok); // after the collector's answer (or its failure) is shown

private:
    void finished(int code, QProcess::ExitStatus status);

    QString collector_;
    TableModel* model_;
    QTableView* view_;
    QLabel* status_;
    QProcess* process_;
};

} // namespace hitmap::gui
