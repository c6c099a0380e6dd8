#include "gui/views/run_dialog.hpp"

#include "collector/analysis/story.hpp"
#include "gui/models/progress_line.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace hitmap::gui {

namespace {

// The first workload story's workload and its before and after variants, as its metadata names
// them; empty without one.
QString story_workload() {
    const engine::WorkloadInfo* story = analysis::first_story_workload();
    return story ? QString::fromStdString(story->name) : QString();
}
QString story_variants() {
    const engine::WorkloadInfo* story = analysis::first_story_workload();
    return story ? QString::fromStdString(story->story->before + ',' + story->story->after)
                 : QString();
}

} // namespace

RunDialog::RunDialog(const QString& collector, const QString& db_path, const QStringList& plugins,
                     QWidget* parent)
    : QDialog(parent)
    , collector_(collector)
    , db_path_(db_path)
    , plugins_(plugins)
    , workload_(new QLineEdit(story_workload(), this))
    , variants_(new QLineEdit(story_variants(), this))
    , threads_(new QLineEdit(QStringLiteral("1,2"), this))
    , duration_(new QLineEdit(QStringLiteral("1s"), this))
    , c2c_(new QComboBox(this))
    , progress_(new QProgressBar(this))
    , status_(new QLabel(this))
    , start_(new QPushButton(tr("Start"), this))
    , cancel_(new QPushButton(tr("Close"), this))
    , process_(new QProcess(this)) {
    setWindowTitle(tr("Collect runs"));
    workload_->setObjectName(QStringLiteral("workload"));
    variants_->setObjectName(QStringLiteral("variants"));
    threads_->setObjectName(QStringLiteral("threads"));
    duration_->setObjectName(QStringLiteral("duration"));
    // The collector's --c2c choices, its default first; hardware and perf fail fast with the
    // machine's reason in the status line where they cannot sample.
    c2c_->addItems({QStringLiteral("auto"), QStringLiteral("software"), QStringLiteral("hardware"),
                    QStringLiteral("perf"), QStringLiteral("off")});
    progress_->setRange(0, 1000);
    progress_->setValue(0);
    status_->setWordWrap(true);
    status_->setText(tr("Runs go into %1").arg(db_path_));

    auto* form = new QFormLayout;
    form->addRow(tr("Workload"), workload_);
    form->addRow(tr("Variants"), variants_);
    form->addRow(tr("Threads"), threads_);
    form->addRow(tr("Duration per run"), duration_);
    form->addRow(tr("Cacheline analysis"), c2c_);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(start_);
    buttons->addWidget(cancel_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(progress_);
    layout->addWidget(status_);
    layout->addLayout(buttons);

    connect(start_, &QPushButton::clicked, this, &RunDialog::start);
    connect(cancel_, &QPushButton::clicked, this, &RunDialog::reject);
    connect(process_, &QProcess::readyReadStandardError, this, &RunDialog::readProgress);
    connect(process_, &QProcess::finished, this, &RunDialog::finished);
    connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            status_->setText(tr("Cannot start %1: %2").arg(collector_, process_->errorString()));
            start_->setEnabled(true);
            cancel_->setText(tr("Close"));
        }
    });
}

QStringList RunDialog::arguments() const {
    QStringList args;
    for (const QString& plugin : plugins_)
        args << QStringLiteral("--plugin") << plugin;
    return args + QStringList{QStringLiteral("run"),        workload_->text().trimmed(),
                              QStringLiteral("--variant"),  variants_->text().trimmed(),
                              QStringLiteral("--threads"),  threads_->text().trimmed(),
                              QStringLiteral("--duration"), duration_->text().trimmed(),
                              QStringLiteral("--c2c"),      c2c_->currentText(),
                              QStringLiteral("--progress"), QStringLiteral("json"),
                              QStringLiteral("--db"),       db_path_};
}

void RunDialog::start() {
    if (process_->state() != QProcess::NotRunning)
        return;
    cancelled_ = false;
    pending_.clear();
    progress_->setValue(0);
    progress_->setRange(0, 0); // busy until the first progress line
    status_->setText(tr("Starting…"));
    start_->setEnabled(false);
    cancel_->setText(tr("Cancel"));
    process_->start(collector_, arguments());
}

void RunDialog::readProgress() {
    pending_ += process_->readAllStandardError();
    qsizetype nl;
    while ((nl = pending_.indexOf('\n')) >= 0) {
        const QByteArray line = pending_.left(nl);
        pending_.remove(0, nl + 1);
        const std::optional<ProgressLine> p = parse_progress_line(line);
        if (!p) {
            if (!line.trimmed().isEmpty())
                status_->setText(QString::fromUtf8(line)); // an error message from the CLI
            continue;
        }
        progress_->setRange(0, 1000);
        progress_->setValue(static_cast<int>(1000 * p->overall()));
        if (p->event == QLatin1String("begin"))
            status_->setText(tr("Run %1 of %2: %3").arg(p->index + 1).arg(p->total).arg(p->label));
        else if (p->event == QLatin1String("end"))
            status_->setText(p->summary);
    }
}

void RunDialog::finished(int code, QProcess::ExitStatus status) {
    const bool ok = status == QProcess::NormalExit && code == 0 && !cancelled_;
    progress_->setRange(0, 1000);
    if (ok)
        progress_->setValue(1000);
    status_->setText(ok           ? tr("Done.")
                     : cancelled_ ? tr("Cancelled; finished runs are kept, the interrupted one "
                                       "is marked incomplete.")
                                  : tr("%1 (exit code %2)").arg(status_->text()).arg(code));
    start_->setEnabled(true);
    cancel_->setText(tr("Close"));
    emit collectionFinished(ok);
}

void RunDialog::reject() {
    if (process_->state() != QProcess::NotRunning) {
        cancelled_ = true;
        // SIGTERM ends the child; SQLite's journal rolls back its open transaction, so
        // the file stays consistent and the interrupted run stays 'running' (incomplete).
        process_->terminate();
        return;
    }
    QDialog::reject();
}

} // namespace hitmap::gui
