#pragma once
// Launches `hitmap-collect run … --progress json` and follows its JSON progress lines on
// stderr. The workloads, their variants and parameters and the simulated machines are picked
// from the collector's own list (`list --json`, plugins included), not typed. Cancel
// terminates the child; the store's transactions keep the file consistent and an interrupted
// run stays visible as incomplete.
#include "gui/models/workload_list.hpp"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace hitmap::gui {

class CollectorJob;
struct ProgressLine;

class RunDialog : public QDialog {
    Q_OBJECT
public:
    // `plugins`: workload plugin files passed on to the collector (`--plugin PATH` each).
    RunDialog(const QString& collector, const QString& db_path, const QStringList& plugins = {},
              QWidget* parent = nullptr);

    // The collector's whole command line, the plugins first.
    QStringList arguments() const;
    // Reads the collector's list (asynchronously: listLoaded follows); start() needs it.
    void loadList();
    bool chooseWorkload(const QString& name);
    // Checks exactly these variants of the chosen workload; false when one is not among them.
    bool chooseVariants(const QStringList& variants);
    void start();
    // While the child runs this cancels it; afterwards it closes the dialog.
    void reject() override;

signals:
    void listLoaded(bool ok);
    // Emitted when the child ends for any reason: new runs may be in the database.
    void collectionFinished(bool ok);

private:
    void showList(bool ok, const QString& message);
    void showWorkload();
    void showProgress(const ProgressLine& p);
    void finished(bool ok, const QString& message);
    QStringList checkedVariants() const;
    QStringList command() const; // `run …`, without the plugins

    QString db_path_;
    CollectorJob* lister_; // `list --json`
    CollectorJob* job_;    // `run …`
    CollectorList list_;
    QComboBox* workload_;
    QLabel* about_;
    QListWidget* variants_;
    QLineEdit* threads_;
    QLineEdit* duration_;
    QSpinBox* repeat_;
    QComboBox* simulate_;
    QLineEdit* params_;
    QLineEdit* layouts_;
    QComboBox* c2c_;
    QProgressBar* progress_;
    QLabel* status_;
    QPushButton* start_;
    QPushButton* cancel_;
    bool cancelled_ = false;
};

} // namespace hitmap::gui
