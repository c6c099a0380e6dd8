#pragma once
// Launches `hitmap-collect run … --progress json` and follows its JSON progress lines on
// stderr. Cancel terminates the child; the store's transactions keep the file consistent and
// an interrupted run stays visible as incomplete.
#include <QDialog>
#include <QProcess>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace hitmap::gui {

class RunDialog : public QDialog {
    Q_OBJECT
public:
    // `plugins`: workload plugin files passed on to the collector (`--plugin PATH` each).
    RunDialog(const QString& collector, const QString& db_path, const QStringList& plugins = {},
              QWidget* parent = nullptr);

    QStringList arguments() const;
    QProcess* process() const { return process_; }
    void start();
    // While the child runs this cancels it; afterwards it closes the dialog.
    void reject() override;

signals:
    // Emitted when the child ends for any reason: new runs may be in the database.
    void collectionFinished(bool ok);

private:
    void readProgress();
    void finished(int code, QProcess::ExitStatus status);

    QString collector_, db_path_;
    QStringList plugins_;
    QLineEdit* workload_;
    QLineEdit* variants_;
    QLineEdit* threads_;
    QLineEdit* duration_;
    QComboBox* c2c_;
    QProgressBar* progress_;
    QLabel* status_;
    QPushButton* start_;
    QPushButton* cancel_;
    QProcess* process_;
    QByteArray pending_; // a partial stderr line
    bool cancelled_ = false;
};

} // namespace hitmap::gui
