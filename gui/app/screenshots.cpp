#include "gui/app/screenshots.hpp"

#include "collector/analysis/comparison.hpp"
#include "gui/app/main_window.hpp"
#include "gui/charts/chart_builder.hpp"
#include "gui/views/compare_view.hpp"
#include "gui/views/layout_view.hpp"
#include "gui/views/line_detail_view.hpp"
#include "gui/views/run_browser.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QSplitter>
#include <QTabWidget>
#include <algorithm>
#include <array>

namespace hitmap::gui {

namespace {

// Lets every read asked for arrive and be shown, and the layouts settle.
void settle(MainWindow& window) {
    if (window.loader()->busy()) {
        QEventLoop loop;
        QObject::connect(window.loader(), &DbLoader::idle, &loop, &QEventLoop::quit);
        loop.exec();
    }
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
}

// Whose cacheline tables picture best: counted on the machine that ran the workload (a
// replayed trace, PMU samples, perf c2c around the run), then another machine's perf c2c
// report, then a simulation, then a prediction (a replay of another run's trace).
std::size_t source_rank(const std::optional<store::C2cSource>& c2c) {
    using enum store::C2cSource;
    static constexpr std::array order{software, hardware, perf, perf_c2c, simulated, predicted};
    return c2c ? static_cast<std::size_t>(std::find(order.begin(), order.end(), *c2c) -
                                          order.begin())
               : order.size();
}

// The first workload in name order, as the run browser lists them; the "before" of a series is
// its variant first in name order; contention shows best at the most threads.
bool pictures_better(const store::RunRecord& a, const store::RunRecord& b) {
    if (a.workload != b.workload)
        return a.workload < b.workload;
    if (a.variant != b.variant)
        return a.variant < b.variant;
    return a.threads.value_or(0) > b.threads.value_or(0);
}

// The best run of `runs` to picture (source first, then pictures_better), or null.
const store::RunRecord* best_run(const std::vector<store::RunRecord>& runs) {
    const auto it = std::min_element(runs.begin(), runs.end(), [](auto& a, auto& b) {
        const std::size_t ra = source_rank(a.c2c_source), rb = source_rank(b.c2c_source);
        return ra != rb ? ra < rb : pictures_better(a, b);
    });
    return it == runs.end() ? nullptr : &*it;
}

template <class Keep>
std::vector<store::RunRecord> complete_runs(const std::vector<store::RunRecord>& runs, Keep keep) {
    std::vector<store::RunRecord> out;
    std::copy_if(runs.begin(), runs.end(), std::back_inserter(out),
                 [&](const auto& r) { return r.status == store::RunStatus::complete && keep(r); });
    return out;
}

} // namespace

QStringList write_screenshots(const QString& db_path, const QString& dir, QSize size) {
    // The window shows a missing file as an empty database to collect into; here it is an
    // error. (Anything but a regular file the store refuses, in one line.)
    if (!QFileInfo::exists(db_path))
        throw ScreenshotError(db_path.toStdString() + ": no such file");
    if (!QDir().mkpath(dir))
        throw ScreenshotError("cannot create " + dir.toStdString());
    MainWindow window;
    window.resize(size);
    window.show();
    QString failure;
    QObject::connect(window.loader(), &DbLoader::openFailed,
                     [&failure](const QString&, const QString& reason) { failure = reason; });
    window.openDatabase(db_path);
    settle(window);
    if (!failure.isEmpty())
        throw ScreenshotError(failure.toStdString());

    // Cacheline pictures from the best run with cacheline tables, compared with a run of
    // another variant whose tables come from the same source; lock pictures from the best run
    // with lock statistics, compared likewise.
    // The story's pair where the runs tell one (the window opened on it), else the best run.
    const auto with_c2c =
        complete_runs(window.runs(), [](auto& r) { return r.c2c_source.has_value(); });
    const auto& story = window.story();
    const auto story_run = std::find_if(with_c2c.begin(), with_c2c.end(),
                                        [&](auto& r) { return story && r.id == story->before; });
    const store::RunRecord* run = story_run != with_c2c.end() ? &*story_run : best_run(with_c2c);
    std::optional<qint64> after;
    if (run)
        after = analysis::default_partner(with_c2c, run->id);
    const std::vector<qint64> lock_ids = read_runs_with_locks(db_path);
    const auto with_locks = complete_runs(window.runs(), [&](auto& r) {
        return std::binary_search(lock_ids.begin(), lock_ids.end(), r.id);
    });
    const auto lock_it = std::min_element(with_locks.begin(), with_locks.end(), pictures_better);
    const store::RunRecord* lock_run = lock_it == with_locks.end() ? nullptr : &*lock_it;
    if (!run && !lock_run)
        throw ScreenshotError(db_path.toStdString() +
                              " holds no complete run with cacheline or lock data to picture");

    QStringList written;
    const auto save = [&](QWidget* w, const QString& name) {
        const QString path = QDir(dir).filePath(name);
        if (!save_png(w, path))
            throw ScreenshotError("cannot write " + path.toStdString());
        written << path;
    };
    if (run) {
        window.showTab(MainWindow::CachelinesTab);
        window.runBrowser()->selectRun(run->id);
        settle(window);
        save(&window, QStringLiteral("cacheline-table.png"));

        // The detail alone, at the window's width, so the strip's field names are large.
        LineDetailView* detail = window.lineDetail();
        QWidget* parent = detail->parentWidget();
        const int index = parent ? static_cast<QSplitter*>(parent)->indexOf(detail) : -1;
        detail->setParent(nullptr);
        detail->resize(size.width(), size.height() * 520 / 900);
        detail->show();
        QCoreApplication::processEvents();
        save(detail, QStringLiteral("line-detail.png"));
        if (auto* split = qobject_cast<QSplitter*>(parent))
            split->insertWidget(index, detail);

        if (after) {
            window.showTab(MainWindow::CompareTab);
            window.compare()->setPair(run->id, *after);
            settle(window);
            save(&window, QStringLiteral("compare.png"));
        }
        window.showTab(MainWindow::ScalingTab);
        settle(window);
        save(&window, QStringLiteral("scaling.png"));

        // The selected run's hottest struct as the run recorded it, with its heat, beside the
        // partner's layout of it with the partner's heat, on one scale.
        window.showTab(MainWindow::LayoutTab);
        settle(window);
        if (after)
            window.layouts()->chooseRun(LayoutView::B, *after);
        settle(window);
        save(&window, QStringLiteral("layout.png"));
    }
    if (lock_run) {
        window.showTab(MainWindow::LocksTab);
        window.runBrowser()->selectRun(lock_run->id);
        settle(window);
        save(&window, QStringLiteral("locks.png"));
        if (const auto lock_after = analysis::default_partner(with_locks, lock_run->id)) {
            window.showTab(MainWindow::CompareTab);
            window.compare()->setPair(lock_run->id, *lock_after);
            settle(window);
            window.compare()->sections()->setCurrentIndex(1);
            QCoreApplication::processEvents();
            save(&window, QStringLiteral("locks-compare.png"));
        }
    }
    return written;
}

} // namespace hitmap::gui
