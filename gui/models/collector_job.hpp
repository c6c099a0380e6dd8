#pragma once
// One `hitmap-collect` child of the app (collect runs, import a file): started with the app's
// plugins, its JSON progress lines on stderr parsed (progress_line.hpp), any other stderr line
// kept as its message (the CLI's one-line error), and its end reported once with that line.
// The run dialog and File → Import both run the collector through it.
#include "gui/models/progress_line.hpp"

#include <QObject>
#include <QProcess>
#include <QStringList>

namespace hitmap::gui {

class CollectorJob : public QObject {
    Q_OBJECT
public:
    // `plugins`: workload plugin files passed on as `--plugin PATH` before the command.
    CollectorJob(QString collector, QStringList plugins, QObject* parent = nullptr);

    // The whole command line after the program: the plugins, then `command`.
    QStringList arguments(const QStringList& command) const;
    void start(const QStringList& command);
    bool running() const { return process_->state() != QProcess::NotRunning; }
    // SIGTERM: the store's transactions keep the file consistent.
    void cancel();
    const QString& collector() const { return collector_; }
    QProcess* process() const { return process_; }

signals:
    void progressed(const hitmap::gui::ProgressLine& line);
    // A stderr line that is no progress object: the collector's error, or a note.
    void message(const QString& line);
    // Once per start: `ok` when it exited with 0; `last_message` is its last message line
    // (the one-line error of a failure), or why it could not start.
    void finished(bool ok, const QString& last_message);

private:
    void readStderr();

    QString collector_;
    QStringList plugins_;
    QProcess* process_;
    QByteArray pending_; // a partial stderr line
    QString last_message_;
};

} // namespace hitmap::gui
