#include "gui/models/collector_job.hpp"

namespace hitmap::gui {

CollectorJob::CollectorJob(QString collector, QStringList plugins, QObject* parent)
    : QObject(parent)
    , collector_(std::move(collector))
    , plugins_(std::move(plugins))
    , process_(new QProcess(this)) {
    connect(process_, &QProcess::readyReadStandardError, this, &CollectorJob::readStderr);
    connect(process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        readStderr();
        if (!pending_.trimmed().isEmpty()) // a last line without its newline
            last_message_ = QString::fromUtf8(pending_.trimmed());
        pending_.clear();
        emit finished(status == QProcess::NormalExit && code == 0, last_message_);
    });
    connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            emit finished(false,
                          tr("Cannot start %1: %2").arg(collector_, process_->errorString()));
    });
}

QStringList CollectorJob::arguments(const QStringList& command) const {
    QStringList args;
    for (const QString& plugin : plugins_)
        args << QStringLiteral("--plugin") << plugin;
    return args + command;
}

void CollectorJob::start(const QStringList& command) {
    if (running())
        return;
    pending_.clear();
    last_message_.clear();
    process_->start(collector_, arguments(command));
}

void CollectorJob::cancel() {
    if (running())
        process_->terminate();
}

void CollectorJob::readStderr() {
    pending_ += process_->readAllStandardError();
    qsizetype nl;
    while ((nl = pending_.indexOf('\n')) >= 0) {
        const QByteArray line = pending_.left(nl);
        pending_.remove(0, nl + 1);
        if (const std::optional<ProgressLine> p = parse_progress_line(line)) {
            emit progressed(*p);
        } else if (!line.trimmed().isEmpty()) {
            last_message_ = QString::fromUtf8(line.trimmed());
            emit message(last_message_);
        }
    }
}

} // namespace hitmap::gui
