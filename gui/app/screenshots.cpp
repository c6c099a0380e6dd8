#include "gui/app/screenshots.hpp"

#include "gui/app/main_window.hpp"
#include "gui/charts/chart_builder.hpp"
#include "gui/views/compare_view.hpp"
#include "gui/views/layout_view.hpp"
#include "gui/views/line_detail_view.hpp"
#include "gui/views/run_browser.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QSplitter>
#include <QTabWidget>
#include <QThread>
#include <algorithm>
#include <stdexcept>

namespace hitmap::gui {

namespace {

// Lets queued results arrive and layouts settle.
void settle(MainWindow& window) {
    wait_until_idle(window);
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
}

// The "before" run of the pictures: the first measured variant with c2c at its highest
// thread count (contention shows best there).
const store::RunRecord* pick_run(const std::vector<store::RunRecord>& runs) {
    const store::RunRecord* best = nullptr;
    for (const auto& r : runs)
        if (r.status == store::RunStatus::complete && r.c2c_source == "software" &&
            (!best || r.variant < best->variant ||
             (r.variant == best->variant && r.threads > best->threads)))
            best = &r;
    return best;
}

} // namespace

bool wait_until_idle(MainWindow& window, int timeout_ms) {
    QElapsedTimer timer;
    timer.start();
    while (window.loader()->busy()) {
        if (timer.elapsed() > timeout_ms)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(2);
    }
    QCoreApplication::processEvents();
    return true;
}

QStringList write_screenshots(const QString& db_path, const QString& dir) {
    if (!QDir().mkpath(dir))
        throw std::runtime_error("cannot create " + dir.toStdString());
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QString failure;
    QObject::connect(window.loader(), &DbLoader::openFailed,
                     [&failure](const QString&, const QString& reason) { failure = reason; });
    window.openDatabase(db_path);
    settle(window);
    if (!failure.isEmpty())
        throw std::runtime_error(failure.toStdString());
    const store::RunRecord* run = pick_run(window.runs());
    if (!run)
        throw std::runtime_error(db_path.toStdString() + " holds no complete run with c2c data");

    QStringList written;
    const auto save = [&](QWidget* w, const QString& name) {
        const QString path = QDir(dir).filePath(name);
        if (!save_png(w, path))
            throw std::runtime_error("cannot write " + path.toStdString());
        written << path;
    };
    window.showTab(MainWindow::CachelinesTab);
    window.runBrowser()->selectRun(run->id);
    settle(window);
    save(&window, QStringLiteral("cacheline-table.png"));

    // The detail alone, at the window's width, so the strip's field names are large.
    LineDetailView* detail = window.lineDetail();
    QWidget* parent = detail->parentWidget();
    const int index = parent ? static_cast<QSplitter*>(parent)->indexOf(detail) : -1;
    detail->setParent(nullptr);
    detail->resize(1400, 520);
    detail->show();
    QCoreApplication::processEvents();
    save(detail, QStringLiteral("line-detail.png"));
    if (auto* split = qobject_cast<QSplitter*>(parent))
        split->insertWidget(index, detail);

    window.showTab(MainWindow::CompareTab);
    settle(window);
    // The picture the project exists for: v6.0 against the release with the whole series.
    for (const auto& r : window.runs())
        if (r.variant == "v6.1" && r.threads == run->threads && r.workload == run->workload &&
            r.c2c_source == "software" && r.status == store::RunStatus::complete)
            window.compare()->setPair(run->id, r.id);
    settle(window);
    save(&window, QStringLiteral("compare.png"));
    window.showTab(MainWindow::ScalingTab);
    settle(window);
    save(&window, QStringLiteral("scaling.png"));

    // Shakeel Butt's patch 2 itself: struct page_counter of v6.0 with the v6.0 run's counters,
    // beside v6.1's with the v6.1 run's, on one scale: the limits off the usage line.
    window.showTab(MainWindow::LayoutTab);
    settle(window);
    LayoutView* layouts = window.layouts();
    layouts->chooseStruct(QStringLiteral("page_counter"));
    layouts->chooseLayout(LayoutView::A, LayoutView::Source::built_in, QStringLiteral("v6.0"));
    layouts->chooseHeat(LayoutView::A, run->id);
    for (const auto& r : window.runs())
        if (r.variant == "v6.1" && r.threads == run->threads && r.workload == run->workload &&
            r.c2c_source == "software" && r.status == store::RunStatus::complete) {
            layouts->chooseLayout(LayoutView::B, LayoutView::Source::built_in,
                                  QStringLiteral("v6.1"));
            layouts->chooseHeat(LayoutView::B, r.id);
        }
    settle(window);
    save(&window, QStringLiteral("layout.png"));

    // Seed 003: the 2009 res_counter lock, one charge per page against Kamezawa's precharge.
    const auto variant_run = [&](const char* variant) -> const store::RunRecord* {
        const store::RunRecord* best = nullptr;
        for (const auto& r : window.runs())
            if (r.workload == "res-counter-charge" && r.variant == variant &&
                r.status == store::RunStatus::complete && (!best || r.threads > best->threads))
                best = &r;
        return best;
    };
    const store::RunRecord* per_page = variant_run("per-page");
    const store::RunRecord* precharge = variant_run("precharge");
    if (per_page) {
        window.showTab(MainWindow::LocksTab);
        window.runBrowser()->selectRun(per_page->id);
        settle(window);
        save(&window, QStringLiteral("locks.png"));
    }
    if (per_page && precharge) {
        window.showTab(MainWindow::CompareTab);
        window.compare()->setPair(per_page->id, precharge->id);
        settle(window);
        window.compare()->sections()->setCurrentIndex(1);
        QCoreApplication::processEvents();
        save(&window, QStringLiteral("locks-compare.png"));
    }
    return written;
}

} // namespace hitmap::gui
