#include "gui/views/doctor_dialog.hpp"

#include "gui/models/machine_doctor.hpp"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace hitmap::gui {

DoctorDialog::DoctorDialog(const QString& collector, QWidget* parent)
    : QDialog(parent)
    , collector_(collector)
    , model_(new TableModel(this))
    , view_(new QTableView(this))
    , status_(new QLabel(tr("Asking %1…").arg(collector), this))
    , process_(new QProcess(this)) {
    setWindowTitle(tr("Machine capabilities"));
    view_->setModel(model_);
    view_->verticalHeader()->hide();
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->setWordWrap(true);
    view_->horizontalHeader()->setStretchLastSection(true);
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(view_);
    layout->addWidget(status_);
    layout->addWidget(buttons);
    resize(1000, 330); // ten rows and their details without scrolling or blank space

    connect(process_, &QProcess::finished, this, &DoctorDialog::finished);
    connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart)
            return;
        status_->setText(tr("Cannot start %1: %2").arg(collector_, process_->errorString()));
        emit reportShown(false);
    });
    process_->start(collector_, {QStringLiteral("doctor"), QStringLiteral("--json")});
}

void DoctorDialog::finished(int code, QProcess::ExitStatus status) {
    const DoctorReport report = parse_doctor_json(process_->readAllStandardOutput());
    const bool ok = status == QProcess::NormalExit && code == 0 && report.error.isEmpty();
    if (!ok) {
        const QString err = QString::fromUtf8(process_->readAllStandardError()).trimmed();
        status_->setText(
            tr("%1 doctor failed: %2").arg(collector_, err.isEmpty() ? report.error : err));
        emit reportShown(false);
        return;
    }
    model_->setRows(report.rows, capability_columns());
    view_->resizeColumnsToContents();
    view_->resizeRowsToContents();
    status_->setText(tr("As `hitmap-collect doctor` sees this machine; what is missing says why."));
    emit reportShown(true);
}

} // namespace hitmap::gui
