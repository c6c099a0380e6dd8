// hitmap: the desktop app. `hitmap [--plugin PATH]... [DB]` opens DB (default ./hitmap.db);
// `hitmap --screenshot DIR [--size WxH] [DB]` writes the main views as PNGs and exits; `hitmap
// export ...` writes an HTML or PDF report without a window. Only the window needs a display.
#include "collector/support/build_info.hpp"
#include "gui/app/export_command.hpp"
#include "gui/app/headless.hpp"
#include "gui/app/main_window.hpp"
#include "gui/app/screenshots.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QSize>
#include <cstdio>
#include <optional>

namespace {

const QCommandLineOption screenshot_option(
    QStringLiteral("screenshot"),
    QStringLiteral("Write the main views as PNG files into <dir> and exit (no display needed)."),
    QStringLiteral("dir"));
const QCommandLineOption size_option(
    QStringLiteral("size"),
    QStringLiteral("With --screenshot: the window's size, WIDTHxHEIGHT (default 1400x900)."),
    QStringLiteral("WxH"), QStringLiteral("1400x900"));
const QCommandLineOption
    plugin_option(QStringLiteral("plugin"),
                  QStringLiteral("Pass a workload plugin to the collector's runs (repeatable)."),
                  QStringLiteral("path"));
const QCommandLineOption
    collector_option(QStringLiteral("collector"),
                     QStringLiteral("The collector that runs, imports and checks the machine "
                                    "(default: hitmap-collect beside this program)."),
                     QStringLiteral("path"));
const QCommandLineOption version_option(QStringLiteral("version"),
                                        QStringLiteral("Print the version and exit."));

void describe(QCommandLineParser& parser) {
    parser.setApplicationDescription(
        QStringLiteral("Browse hitmap runs: contended cachelines field by field. "
                       "`hitmap export --help`: reports as HTML or PDF."));
    parser.addHelpOption();
    parser.addOptions(
        {version_option, screenshot_option, size_option, plugin_option, collector_option});
    parser.addPositionalArgument(QStringLiteral("db"),
                                 QStringLiteral("hitmap database (default: ./hitmap.db)"));
}

// "1366x768" as a size; invalid for anything else, or a side outside 200..8000 pixels.
QSize window_size(const QString& text) {
    const QStringList parts = text.split(QLatin1Char('x'));
    bool w_ok = false, h_ok = false;
    const int w = parts.size() == 2 ? parts[0].toInt(&w_ok) : 0;
    const int h = parts.size() == 2 ? parts[1].toInt(&h_ok) : 0;
    const auto in_range = [](int side) { return side >= 200 && side <= 8000; };
    return w_ok && h_ok && in_range(w) && in_range(h) ? QSize(w, h) : QSize();
}

// Parses `arguments`; why they are wrong, in one line, or empty.
QString usage_error(QCommandLineParser& parser, const QStringList& arguments) {
    if (!parser.parse(arguments))
        return parser.errorText();
    if (const QStringList db = parser.positionalArguments(); db.size() > 1)
        return QStringLiteral("unexpected argument '%1'").arg(db[1]);
    if (!window_size(parser.value(size_option)).isValid())
        return QStringLiteral("--size '%1' is not WIDTHxHEIGHT in pixels, each 200..8000")
            .arg(parser.value(size_option));
    return {};
}

// Qt's default platform here is xcb, or wayland in a Wayland session; without either, creating
// the application aborts (SIGABRT) with a paragraph about platform plugins.
bool display_available() {
    return !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") ||
           !qEnvironmentVariableIsEmpty("DISPLAY") ||
           !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

void name_application() {
    QCoreApplication::setApplicationName(QStringLiteral("hitmap"));
    QCoreApplication::setOrganizationName(QStringLiteral("hitmap"));
}

} // namespace

int main(int argc, char** argv) {
    if (hitmap::gui::is_export_command(argc, argv)) {
        hitmap::gui::prepare_headless("hitmap export");
        QApplication app(argc, argv);
        name_application();
        return hitmap::gui::run_export_command(QApplication::arguments());
    }

    // What is asked for, before any window system is: --help and --version need none, and
    // --screenshot chooses the offscreen one. A usage error is said after QApplication has taken
    // its own options (-platform, -style) out of the command line, or here where no display
    // could start one.
    bool screenshot = false, headless = false;
    QString early_error;
    {
        QCoreApplication core(argc, argv);
        name_application();
        QCommandLineParser parser;
        describe(parser);
        early_error = usage_error(parser, QCoreApplication::arguments());
        if (parser.isSet(QStringLiteral("help"))) {
            std::printf("%s", qPrintable(parser.helpText()));
            return 0;
        }
        if (parser.isSet(version_option)) {
            std::printf("%s\n", hitmap::support::version_text("hitmap").c_str());
            return 0;
        }
        screenshot = parser.isSet(screenshot_option);
        // --help-all lists Qt's options too, which takes the GUI application: a headless one.
        headless = screenshot || parser.isSet(QStringLiteral("help-all"));
    }
    if (headless) {
        hitmap::gui::prepare_headless("hitmap");
    } else if (!display_available()) {
        if (!early_error.isEmpty()) {
            std::fprintf(stderr, "hitmap: %s\n", qPrintable(early_error));
            return 2;
        }
        std::fprintf(stderr, "hitmap: no display (DISPLAY and WAYLAND_DISPLAY are unset); "
                             "`hitmap --screenshot DIR [DB]` and `hitmap export` need none\n");
        return 1;
    }

    QApplication app(argc, argv);
    name_application();
    QCommandLineParser parser;
    describe(parser);
    if (const QString error = usage_error(parser, QApplication::arguments()); !error.isEmpty()) {
        std::fprintf(stderr, "hitmap: %s\n", qPrintable(error));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help-all")))
        parser.process(app); // prints the help with Qt's options, and exits
    const QString db = parser.positionalArguments().value(0, QStringLiteral("hitmap.db"));

    if (screenshot) {
        try {
            for (const QString& file : hitmap::gui::write_screenshots(
                     db, parser.value(screenshot_option), window_size(parser.value(size_option))))
                std::printf("wrote %s\n", qPrintable(file));
            return 0;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "hitmap: %s\n", e.what());
            return 1;
        }
    }

    hitmap::gui::MainWindow window;
    window.setPlugins(parser.values(plugin_option));
    if (parser.isSet(collector_option))
        window.setCollectorPath(parser.value(collector_option));
    window.show();
    window.openDatabase(db);
    return QApplication::exec();
}
