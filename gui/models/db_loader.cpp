#include "gui/models/db_loader.hpp"

#include "collector/run/kernel_locks.hpp"
#include "collector/store/database.hpp"

#include <QFileInfo>
#include <QtConcurrent/QtConcurrent>
#include <SQLiteCpp/SQLiteCpp.h>

namespace hitmap::gui {

namespace {

// Never create or migrate: the GUI only looks.
store::Database open_read_only(const QString& path) {
    return store::Database::open(path.toStdString(),
                                 {.create_if_missing = false, .read_only = true});
}

RunDetail detail_of(store::Database& db, qint64 run_id) {
    auto run = db.run(run_id);
    if (!run)
        throw std::runtime_error("run " + std::to_string(run_id) + " is not in the database");
    RunDetail detail{
        *run, store::read_c2c(db.sql(), run_id), store::read_lock_tables(db.sql(), run_id), {}};
    if (const auto kernel = collector::find_kernel_locks_metric(db.metrics(run_id)))
        detail.kernel_locks_unavailable = collector::kernel_locks_unavailable(*kernel);
    return detail;
}

// The newest stored prediction (`predict --store`) of `before`'s trace at `after`'s threads.
std::optional<store::RunRecord> prediction_for(store::Database& db, const store::RunRecord& before,
                                               const store::RunRecord& after) {
    SQLite::Statement q(db.sql(), "SELECT id FROM run WHERE predicted_from = ? AND threads IS ? "
                                  "AND status = 'complete' ORDER BY id DESC LIMIT 1");
    q.bind(1, before.id);
    if (after.threads)
        q.bind(2, *after.threads);
    else
        q.bind(2);
    if (!q.executeStep())
        return std::nullopt;
    return db.run(q.getColumn(0).getInt64());
}

} // namespace

RunList read_run_list(const QString& path) {
    const QFileInfo info(path);
    if (!info.exists() || (info.isFile() && info.size() == 0))
        return {path, false, {}};
    auto db = open_read_only(path);
    return {path, true, db.runs()};
}

RunDetail read_run_detail(const QString& path, qint64 run_id) {
    auto db = open_read_only(path);
    return detail_of(db, run_id);
}

CompareData read_compare(const QString& path, qint64 before, qint64 after) {
    auto db = open_read_only(path);
    CompareData data{detail_of(db, before), detail_of(db, after), {}, {}};
    data.prediction_run = prediction_for(db, data.before.run, data.after.run);
    if (data.prediction_run && data.before.c2c) {
        if (auto predicted = store::read_c2c(db.sql(), data.prediction_run->id))
            data.prediction = report::compare_prediction(
                *data.before.c2c, *predicted, data.after.c2c ? &*data.after.c2c : nullptr);
    }
    return data;
}

// Each request runs read_* on the pool and reports (value or error text) back on this
// object's thread; the generation check drops answers to superseded requests.
void DbLoader::openDatabase(const QString& path) {
    path_ = path;
    const unsigned gen = ++open_generation_;
    ++run_generation_;
    ++compare_generation_;
    ++pending_;
    QtConcurrent::run([path]() -> std::variant<RunList, QString> {
        try {
            return read_run_list(path);
        } catch (const std::exception& e) {
            return QString::fromStdString(e.what());
        }
    }).then(this, [this, gen, path](std::variant<RunList, QString> result) {
        --pending_;
        if (gen != open_generation_)
            return;
        if (auto* runs = std::get_if<RunList>(&result))
            emit runsLoaded(*runs);
        else
            emit openFailed(path, std::get<QString>(result));
    });
}

void DbLoader::loadRun(qint64 run_id) {
    const unsigned gen = ++run_generation_;
    ++pending_;
    QtConcurrent::run([path = path_, run_id]() -> std::variant<RunDetail, QString> {
        try {
            return read_run_detail(path, run_id);
        } catch (const std::exception& e) {
            return QString::fromStdString(e.what());
        }
    }).then(this, [this, gen](std::variant<RunDetail, QString> result) {
        --pending_;
        if (gen != run_generation_)
            return;
        if (auto* d = std::get_if<RunDetail>(&result))
            emit runLoaded(std::make_shared<const RunDetail>(std::move(*d)));
        else
            emit loadFailed(std::get<QString>(result));
    });
}

void DbLoader::loadCompare(qint64 before, qint64 after) {
    const unsigned gen = ++compare_generation_;
    ++pending_;
    QtConcurrent::run([path = path_, before, after]() -> std::variant<CompareData, QString> {
        try {
            return read_compare(path, before, after);
        } catch (const std::exception& e) {
            return QString::fromStdString(e.what());
        }
    }).then(this, [this, gen](std::variant<CompareData, QString> result) {
        --pending_;
        if (gen != compare_generation_)
            return;
        if (auto* d = std::get_if<CompareData>(&result))
            emit compareLoaded(std::make_shared<const CompareData>(std::move(*d)));
        else
            emit loadFailed(std::get<QString>(result));
    });
}

} // namespace hitmap::gui
