// hitmap: the desktop app. `hitmap [--plugin PATH]... [DB]` opens DB (default ./hitmap.db);
// `hitmap --screenshot DIR [DB]` writes the main views as PNGs and exits; `hitmap export ...`
// writes an HTML or PDF report without a window.
#include "gui/app/export_command.hpp"
#include "gui/app/main_window.hpp"
#include "gui/app/screenshots.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>

int main(int argc, char** argv) {
    const bool exporting = hitmap::gui::is_export_command(argc, argv);
    if (exporting)
        hitmap::gui::prepare_export();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("hitmap"));
    QApplication::setOrganizationName(QStringLiteral("hitmap"));

    if (exporting)
        return hitmap::gui::run_export_command(QApplication::arguments());

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Browse hitmap runs: contended cachelines field by field."));
    parser.addHelpOption();
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Write the main views as PNG files into <dir> and exit."),
        QStringLiteral("dir"));
    parser.addOption(screenshot);
    const QCommandLineOption plugin(
        QStringLiteral("plugin"),
        QStringLiteral("Pass a workload plugin to the collector's runs (repeatable)."),
        QStringLiteral("path"));
    parser.addOption(plugin);
    parser.addPositionalArgument(QStringLiteral("db"),
                                 QStringLiteral("hitmap database (default: ./hitmap.db)"));
    parser.process(app);
    const QString db = parser.positionalArguments().value(0, QStringLiteral("hitmap.db"));

    if (parser.isSet(screenshot)) {
        try {
            for (const QString& file : hitmap::gui::write_screenshots(db, parser.value(screenshot)))
                std::printf("wrote %s\n", qPrintable(file));
            return 0;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "hitmap: %s\n", e.what());
            return 1;
        }
    }

    hitmap::gui::MainWindow window;
    window.setPlugins(parser.values(plugin));
    window.show();
    window.openDatabase(db);
    return QApplication::exec();
}
