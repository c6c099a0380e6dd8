#include "gui/app/headless.hpp"

#include <QtGlobal>
#include <cstdio>

namespace hitmap::gui {

namespace {

const char* command_name = "hitmap";

void quiet_qt_notes(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type == QtCriticalMsg || type == QtFatalMsg)
        std::fprintf(stderr, "%s: %s\n", command_name, qPrintable(message));
}

} // namespace

void prepare_headless(const char* command) {
    command_name = command;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler(quiet_qt_notes);
}

} // namespace hitmap::gui
