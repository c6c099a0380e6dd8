#include "gui/views/run_dialog.hpp"

#include "collector/analysis/story.hpp"
#include "gui/models/collector_job.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

namespace hitmap::gui {

namespace {

// "a=1, b=2" -> {"a=1", "b=2"}: the repeatable options are typed as one comma-separated line.
QStringList items(const QLineEdit* edit) {
    QStringList out;
    for (const QString& item : edit->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!item.trimmed().isEmpty())
            out << item.trimmed();
    return out;
}

const QString kVirtualDuration = QStringLiteral("5ms"); // --simulate's default: virtual time
const QString kDuration = QStringLiteral("1s");

} // namespace

RunDialog::RunDialog(const QString& collector, const QString& db_path, const QStringList& plugins,
                     QWidget* parent)
    : QDialog(parent)
    , db_path_(db_path)
    , lister_(new CollectorJob(collector, plugins, this))
    , job_(new CollectorJob(collector, plugins, this))
    , workload_(new QComboBox(this))
    , about_(new QLabel(this))
    , variants_(new QListWidget(this))
    , threads_(new QLineEdit(QStringLiteral("1,2"), this))
    , duration_(new QLineEdit(kDuration, this))
    , repeat_(new QSpinBox(this))
    , simulate_(new QComboBox(this))
    , params_(new QLineEdit(this))
    , layouts_(new QLineEdit(this))
    , c2c_(new QComboBox(this))
    , progress_(new QProgressBar(this))
    , status_(new QLabel(this))
    , start_(new QPushButton(tr("Start"), this))
    , cancel_(new QPushButton(tr("Close"), this)) {
    setWindowTitle(tr("Collect runs"));
    workload_->setObjectName(QStringLiteral("workload"));
    variants_->setObjectName(QStringLiteral("variants"));
    threads_->setObjectName(QStringLiteral("threads"));
    duration_->setObjectName(QStringLiteral("duration"));
    repeat_->setObjectName(QStringLiteral("repeat"));
    simulate_->setObjectName(QStringLiteral("simulate"));
    params_->setObjectName(QStringLiteral("params"));
    layouts_->setObjectName(QStringLiteral("layouts"));
    about_->setWordWrap(true);
    variants_->setMaximumHeight(110);
    repeat_->setRange(1, 100);
    layouts_->setPlaceholderText(
        tr("STRUCT=VERSION, STRUCT=FILE.json or STRUCT=btf; comma-separated"));
    // The collector's --c2c choices, its default first; hardware and perf fail fast with the
    // machine's reason in the status line where they cannot sample.
    c2c_->addItems({QStringLiteral("auto"), QStringLiteral("software"), QStringLiteral("hardware"),
                    QStringLiteral("perf"), QStringLiteral("off")});
    progress_->setRange(0, 1000);
    progress_->setValue(0);
    status_->setWordWrap(true);
    status_->setText(tr("Runs go into %1").arg(db_path_));
    start_->setEnabled(false); // until the list is read

    auto* form = new QFormLayout;
    form->addRow(tr("Workload"), workload_);
    form->addRow(QString(), about_);
    form->addRow(tr("Variants"), variants_);
    form->addRow(tr("Threads"), threads_);
    form->addRow(tr("Duration per run"), duration_);
    form->addRow(tr("Repeats"), repeat_);
    form->addRow(tr("Simulate on"), simulate_);
    form->addRow(tr("Parameters"), params_);
    form->addRow(tr("Layouts"), layouts_);
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

    connect(workload_, &QComboBox::currentIndexChanged, this, &RunDialog::showWorkload);
    connect(simulate_, &QComboBox::currentIndexChanged, this, [this](int index) {
        // Simulated runs last virtual time: 1 s of it is a long wait.
        const QString& from = index == 0 ? kVirtualDuration : kDuration;
        if (duration_->text() == from)
            duration_->setText(index == 0 ? kDuration : kVirtualDuration);
    });
    connect(start_, &QPushButton::clicked, this, &RunDialog::start);
    connect(cancel_, &QPushButton::clicked, this, &RunDialog::reject);
    connect(lister_, &CollectorJob::finished, this, &RunDialog::showList);
    connect(job_, &CollectorJob::progressed, this, &RunDialog::showProgress);
    connect(job_, &CollectorJob::message, status_, &QLabel::setText); // the CLI's own error
    connect(job_, &CollectorJob::finished, this, &RunDialog::finished);
    loadList();
}

void RunDialog::loadList() {
    status_->setText(tr("Reading the collector's workloads…"));
    lister_->start({QStringLiteral("list"), QStringLiteral("--json")});
}

void RunDialog::showList(bool ok, const QString& message) {
    const std::optional<CollectorList> list =
        ok ? parse_collector_list(lister_->process()->readAllStandardOutput()) : std::nullopt;
    if (!list || list->workloads.empty()) {
        status_->setText(ok ? tr("The collector listed no workload.")
                            : tr("Cannot read the collector's workloads: %1").arg(message));
        emit listLoaded(false);
        return;
    }
    list_ = *list;
    {
        const QSignalBlocker block(workload_);
        workload_->clear();
        for (const WorkloadChoice& w : list_.workloads)
            workload_->addItem(w.name);
        simulate_->clear();
        simulate_->addItem(tr("this machine (measured or traced)"));
        simulate_->addItem(QStringLiteral("host"));
        simulate_->addItems(list_.machines);
    }
    // Open on the first workload story's workload (its metadata names it), else the first listed.
    if (const engine::WorkloadInfo* story = analysis::first_story_workload())
        if (const int i = workload_->findText(QString::fromStdString(story->name)); i >= 0) {
            const QSignalBlocker block(workload_);
            workload_->setCurrentIndex(i);
        }
    showWorkload();
    status_->setText(tr("Runs go into %1").arg(db_path_));
    start_->setEnabled(true);
    emit listLoaded(true);
}

void RunDialog::showWorkload() {
    variants_->clear();
    const int index = workload_->currentIndex();
    if (index < 0 || index >= static_cast<int>(list_.workloads.size()))
        return;
    const WorkloadChoice& w = list_.workloads[static_cast<std::size_t>(index)];
    about_->setText(w.description);
    // A before and an after to compare: the workload story's where it tells one, else the first
    // two variants.
    QStringList checked;
    if (const engine::Story* story = analysis::story_of(w.name.toStdString()))
        checked = {QString::fromStdString(story->before), QString::fromStdString(story->after)};
    for (int i = 0; i < w.variants.size(); ++i) {
        auto* item = new QListWidgetItem(w.variants[i], variants_);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        const bool on = checked.isEmpty() ? i < 2 : checked.contains(w.variants[i]);
        item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
    params_->clear();
    params_->setPlaceholderText(w.params.isEmpty()
                                    ? tr("this workload takes no parameter")
                                    : tr("defaults: %1").arg(w.params.join(QStringLiteral(", "))));
    params_->setEnabled(!w.params.isEmpty());
}

bool RunDialog::chooseWorkload(const QString& name) {
    const int index = workload_->findText(name);
    if (index >= 0)
        workload_->setCurrentIndex(index);
    return index >= 0;
}

bool RunDialog::chooseVariants(const QStringList& variants) {
    for (const QString& v : variants)
        if (variants_->findItems(v, Qt::MatchExactly).isEmpty())
            return false;
    for (int i = 0; i < variants_->count(); ++i)
        variants_->item(i)->setCheckState(
            variants.contains(variants_->item(i)->text()) ? Qt::Checked : Qt::Unchecked);
    return true;
}

QStringList RunDialog::checkedVariants() const {
    QStringList out;
    for (int i = 0; i < variants_->count(); ++i)
        if (variants_->item(i)->checkState() == Qt::Checked)
            out << variants_->item(i)->text();
    return out;
}

QStringList RunDialog::arguments() const {
    return job_->arguments(command());
}

QStringList RunDialog::command() const {
    QStringList command{QStringLiteral("run"),        workload_->currentText(),
                        QStringLiteral("--variant"),  checkedVariants().join(QLatin1Char(',')),
                        QStringLiteral("--threads"),  threads_->text().trimmed(),
                        QStringLiteral("--duration"), duration_->text().trimmed(),
                        QStringLiteral("--repeat"),   QString::number(repeat_->value())};
    if (simulate_->currentIndex() > 0)
        command << QStringLiteral("--simulate") << simulate_->currentText();
    for (const QString& p : items(params_))
        command << QStringLiteral("--param") << p;
    for (const QString& l : items(layouts_))
        command << QStringLiteral("--layout") << l;
    command << QStringLiteral("--c2c") << c2c_->currentText() << QStringLiteral("--progress")
            << QStringLiteral("json") << QStringLiteral("--db") << db_path_;
    return command;
}

void RunDialog::start() {
    if (job_->running())
        return;
    if (checkedVariants().isEmpty()) {
        status_->setText(tr("Check at least one variant."));
        return;
    }
    cancelled_ = false;
    progress_->setValue(0);
    progress_->setRange(0, 0); // busy until the first progress line
    status_->setText(tr("Starting…"));
    start_->setEnabled(false);
    cancel_->setText(tr("Cancel"));
    job_->start(command());
}

void RunDialog::showProgress(const ProgressLine& p) {
    progress_->setRange(0, 1000);
    progress_->setValue(static_cast<int>(1000 * p.overall()));
    if (p.event == QLatin1String("begin"))
        status_->setText(tr("Run %1 of %2: %3").arg(p.index + 1).arg(p.total).arg(p.label));
    else if (p.event == QLatin1String("end"))
        status_->setText(p.summary);
}

void RunDialog::finished(bool ok, const QString& message) {
    ok = ok && !cancelled_;
    progress_->setRange(0, 1000);
    if (ok)
        progress_->setValue(1000);
    status_->setText(ok           ? tr("Done.")
                     : cancelled_ ? tr("Cancelled; finished runs are kept, the interrupted one "
                                       "is marked incomplete.")
                                  : (message.isEmpty() ? tr("The collector failed.") : message));
    start_->setEnabled(true);
    cancel_->setText(tr("Close"));
    emit collectionFinished(ok);
}

void RunDialog::reject() {
    if (job_->running()) {
        cancelled_ = true;
        // SIGTERM ends the child; SQLite's journal rolls back its open transaction, so
        // the file stays consistent and the interrupted run stays 'running' (incomplete).
        job_->cancel();
        return;
    }
    QDialog::reject();
}

} // namespace hitmap::gui
