#include "gui/models/db_loader.hpp"

#include "collector/btf/layout_source.hpp"
#include "collector/store/database.hpp"
#include "collector/store/lock_tables.hpp"

#include <QFileInfo>
#include <QtConcurrent/QtConcurrent>
#include <type_traits>
#include <variant>

namespace hitmap::gui {

namespace {

// Never create or migrate: the GUI only looks.
store::Database open_read_only(const QString& path) {
    return store::Database::open(path.toStdString(),
                                 {.create_if_missing = false, .read_only = true});
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
    return analysis::read_run_detail(db, run_id);
}

CompareData read_compare(const QString& path, qint64 before, qint64 after) {
    auto db = open_read_only(path);
    return analysis::read_compare(db, before, after);
}

analysis::Report read_report(const QString& path, const analysis::ReportRequest& request) {
    auto db = open_read_only(path);
    return analysis::build_report(db, request);
}

analysis::LayoutCatalog read_layout_catalog(const QString& path) {
    auto db = open_read_only(path);
    return analysis::read_layout_catalog(db);
}

std::vector<qint64> read_runs_with_locks(const QString& path) {
    auto db = open_read_only(path);
    std::vector<qint64> ids;
    for (const store::RunRecord& r : db.runs({.status = store::RunStatus::complete}))
        for (const store::LockData& table : store::read_lock_tables(db, r.id))
            if (!table.report.classes.empty()) {
                ids.push_back(r.id);
                break;
            }
    return ids;
}

// The one job helper: `read` runs on the pool and its value (or error text) comes back on
// this object's thread, where an answer to a superseded request (`generation` moved on) is
// dropped and the others go to `done` or `failed`.
template <typename Read, typename Done, typename Failed>
void DbLoader::request(unsigned& generation, Read read, Done done, Failed failed) {
    using Value = std::invoke_result_t<Read>;
    const unsigned gen = ++generation;
    ++pending_;
    QtConcurrent::run([read = std::move(read)]() -> std::variant<Value, QString> {
        try {
            return read();
        } catch (const std::exception& e) {
            return QString::fromStdString(e.what());
        }
    })
        .then(this, [this, gen, &generation, done = std::move(done),
                     failed = std::move(failed)](std::variant<Value, QString> result) {
            if (gen == generation) {
                if (auto* value = std::get_if<Value>(&result))
                    done(std::move(*value));
                else
                    failed(std::get<QString>(result));
            }
            // After `done`, which may ask for more (a run list selects a run).
            if (--pending_ == 0)
                emit idle();
        });
}

void DbLoader::openDatabase(const QString& path) {
    path_ = path;
    ++run_generation_; // runs and details of another file are stale
    ++compare_generation_;
    ++report_generation_;
    ++layouts_generation_;
    request(
        open_generation_, [path] { return read_run_list(path); },
        [this](RunList runs) { emit runsLoaded(runs); },
        [this, path](const QString& reason) { emit openFailed(path, reason); });
}

void DbLoader::loadRun(qint64 run_id) {
    request(
        run_generation_, [path = path_, run_id] { return read_run_detail(path, run_id); },
        [this](RunDetail d) { emit runLoaded(std::make_shared<const RunDetail>(std::move(d))); },
        [this](const QString& reason) { emit loadFailed(reason); });
}

void DbLoader::loadCompare(qint64 before, qint64 after) {
    request(
        compare_generation_,
        [path = path_, before, after] { return read_compare(path, before, after); },
        [this](CompareData d) {
            emit compareLoaded(std::make_shared<const CompareData>(std::move(d)));
        },
        [this](const QString& reason) { emit loadFailed(reason); });
}

void DbLoader::loadReport(const analysis::ReportRequest& wanted) {
    request(
        report_generation_, [path = path_, wanted] { return read_report(path, wanted); },
        [this](analysis::Report r) {
            emit reportLoaded(std::make_shared<const analysis::Report>(std::move(r)));
        },
        [this](const QString& reason) { emit loadFailed(reason); });
}

void DbLoader::loadLayouts() {
    request(
        layouts_generation_, [path = path_] { return read_layout_catalog(path); },
        [this](analysis::LayoutCatalog c) {
            emit layoutsLoaded(std::make_shared<const analysis::LayoutCatalog>(std::move(c)));
        },
        [this](const QString& reason) { emit loadFailed(reason); });
}

void DbLoader::loadKernelLayout(const QString& struct_name) {
    request(
        kernel_generation_,
        [name = struct_name.toStdString()] { return btf::resolve_layout(name, "btf"); },
        [this, struct_name](engine::Layout l) {
            emit kernelLayoutLoaded(struct_name,
                                    std::make_shared<const engine::Layout>(std::move(l)));
        },
        [this, struct_name](const QString& reason) {
            emit kernelLayoutFailed(struct_name, reason);
        });
}

} // namespace hitmap::gui
