#include "fixture.hpp"

#include "collector/perfc2c/report_parser.hpp"
#include "collector/perfc2c/stored_import.hpp"
#include "collector/support/text_file.hpp"
#include "gui/models/db_loader.hpp"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <filesystem>

namespace hitmap::gui::test {

AppResult run_app(const QStringList& args, const QProcessEnvironment& env) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(HITMAP_APP_PATH), args);
    const bool finished = p.waitForFinished(kWaitMs);
    return {finished && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

QString shared_file(const QString& relative) {
    const QString dir = qEnvironmentVariableIsEmpty("HITMAP_SHARED_DIR")
                            ? QStringLiteral(HITMAP_SHARED_DIR_DEFAULT)
                            : qEnvironmentVariable("HITMAP_SHARED_DIR");
    const QString path = QDir(dir).filePath(relative);
    return QFileInfo::exists(path) ? path : QString();
}

Fixture make_fixture(const QTemporaryDir& dir) {
    namespace fs = std::filesystem;
    Fixture f;
    f.db = dir.filePath(QStringLiteral("fixture.db"));
    std::error_code error;
    fs::copy_file(HITMAP_TEST_DATA "/small.db", f.db.toStdString(), error);
    if (!error)
        fs::copy(HITMAP_TEST_DATA "/small.db.traces", f.db.toStdString() + ".traces",
                 fs::copy_options::recursive, error);
    if (error)
        return {{},
                QStringLiteral("cannot copy the fixture: %1")
                    .arg(QString::fromStdString(error.message()))};
    for (const auto& r : read_run_list(f.db).runs)
        for (auto [variant, id] :
             {std::pair{"v6.0", &f.v60}, std::pair{"v6.1", &f.v61},
              std::pair{"per-page", &f.per_page}, std::pair{"precharge", &f.precharge}})
            if (r.variant == variant)
                *id = r.id;
    return f;
}

Imported import_perf_c2c_reports(const QTemporaryDir& dir) {
    Imported imported{dir.filePath(QStringLiteral("imported.db")), {}};
    for (const char* report :
         {"joemario-c2c-blog-example-2016.txt", "perfgo-false-sharing-amd-ibs-example.txt"}) {
        const QString file = shared_file(QStringLiteral("fixtures/c2c/") + QLatin1String(report));
        if (file.isEmpty())
            return {};
        // In this process, as `import perf-c2c` stores it: no collector is started.
        try {
            const auto text = support::read_text_file(file.toStdString());
            if (!text)
                throw std::runtime_error("cannot read it");
            const perfc2c::C2cReport parsed = perfc2c::parse_c2c_report(*text);
            perfc2c::ImportedC2c mapped = perfc2c::import_report(parsed, {});
            store::Database db = store::Database::open(imported.db.toStdString());
            perfc2c::store_c2c_import(db, file.toStdString(), parsed, {}, mapped);
        } catch (const std::exception& e) {
            imported.error =
                QStringLiteral("cannot import %1: %2").arg(file, QString::fromUtf8(e.what()));
        }
        if (!imported.error.isEmpty())
            break;
    }
    return imported;
}

} // namespace hitmap::gui::test
