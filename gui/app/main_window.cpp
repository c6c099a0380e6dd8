#include "gui/app/main_window.hpp"

#include "collector/analysis/comparison.hpp"
#include "collector/support/build_info.hpp"
#include "gui/charts/chart_builder.hpp"
#include "gui/models/collector_job.hpp"
#include "gui/models/run_tree_model.hpp"
#include "gui/views/cacheline_table.hpp"
#include "gui/views/compare_view.hpp"
#include "gui/views/doctor_dialog.hpp"
#include "gui/views/empty_state.hpp"
#include "gui/views/layout_view.hpp"
#include "gui/views/line_detail_view.hpp"
#include "gui/views/locks_view.hpp"
#include "gui/views/run_browser.hpp"
#include "gui/views/run_dialog.hpp"
#include "gui/views/scaling_view.hpp"

#include <QApplication>
#include <QChartView>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>

namespace hitmap::gui {

namespace {
const QString kRecentKey = QStringLiteral("recentFiles");
constexpr int kMaxRecent = 8;
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , loader_(new DbLoader(this))
    , stack_(new QStackedWidget(this))
    , empty_(new EmptyState(this))
    , tabs_(new QTabWidget(this))
    , browser_(new RunBrowser(this))
    , cachelines_(new CachelineTable(this))
    , detail_(new LineDetailView(this))
    , compare_(new CompareView(this))
    , scaling_(new ScalingView(this))
    , locks_(new LocksView(this))
    , layouts_(new LayoutView(this))
    , collector_(QCoreApplication::applicationDirPath() + QStringLiteral("/hitmap-collect")) {
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(cachelines_);
    split->addWidget(detail_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    // Each tab scrolls when the window is smaller than what it needs (a 1366x768 laptop):
    // its charts and tables keep their minimum sizes and stay reachable, not cut off.
    for (auto [page, name] : {std::pair<QWidget*, QString>{split, tr("Cachelines")},
                              {compare_, tr("Compare")},
                              {scaling_, tr("Scaling")},
                              {locks_, tr("Locks")},
                              {layouts_, tr("Layout")}}) {
        auto* scroll = new QScrollArea(this);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidget(page);
        tabs_->addTab(scroll, name);
    }
    stack_->addWidget(empty_);
    stack_->addWidget(tabs_);
    setCentralWidget(stack_);

    auto* dock = new QDockWidget(tr("Runs"), this);
    dock->setObjectName(QStringLiteral("runs"));
    dock->setWidget(browser_);
    dock->setFeatures(QDockWidget::DockWidgetMovable);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    resizeDocks({dock}, {380}, Qt::Horizontal);

    connect(loader_, &DbLoader::runsLoaded, this, &MainWindow::showRuns);
    connect(loader_, &DbLoader::openFailed, this, &MainWindow::showOpenError);
    connect(loader_, &DbLoader::runLoaded, this, &MainWindow::showRun);
    connect(loader_, &DbLoader::compareLoaded, this, [this](auto data) {
        if (compare_->setData(std::move(data)))
            emit compareShown();
    });
    connect(loader_, &DbLoader::reportLoaded, this, [this](auto report) { writeReport(*report); });
    connect(loader_, &DbLoader::layoutsLoaded, layouts_, &LayoutView::setCatalog);
    connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::loadLayoutsIfShown);
    connect(loader_, &DbLoader::kernelLayoutLoaded, layouts_, &LayoutView::setKernelLayout);
    connect(loader_, &DbLoader::kernelLayoutFailed, layouts_, &LayoutView::setKernelLayoutError);
    connect(layouts_, &LayoutView::kernelLayoutRequested, loader_, &DbLoader::loadKernelLayout);
    connect(loader_, &DbLoader::loadFailed, this,
            [this](const QString& reason) { statusBar()->showMessage(reason, 10000); });
    connect(browser_, &RunBrowser::runSelected, this, &MainWindow::selectRun);
    connect(cachelines_, &CachelineTable::lineSelected, this,
            [this](const c2c::LineKey& line) { detail_->setLine(run_, line); });
    connect(compare_, &CompareView::compareRequested, loader_, &DbLoader::loadCompare);
    connect(empty_, &EmptyState::collectRequested, this, &MainWindow::openRunDialog);

    buildMenus();
    setWindowTitle(tr("hitmap"));
    resize(1400, 900);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open hitmap database"), QFileInfo(loader_->path()).absolutePath(),
            tr("hitmap databases (*.db *.sqlite);;All files (*)"));
        if (!path.isEmpty())
            openDatabase(path);
    });
    recent_ = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addAction(tr("&Reload"), QKeySequence::Refresh, this,
                    [this] { openDatabase(loader_->path()); });
    file->addSeparator();
    file->addAction(tr("&Collect runs…"), QKeySequence(tr("Ctrl+R")), this,
                    &MainWindow::openRunDialog);
    // Not named `import`: clang-format takes that for a C++20 module import and mangles the
    // lines after it.
    QMenu* imports = file->addMenu(tr("&Import"));
    imports->addAction(tr("perf &c2c report (perf c2c report --stdio)…"), this,
                       [this] { chooseImportFile(ImportKind::perf_c2c); });
    imports->addAction(tr("&lock_stat (/proc/lock_stat)…"), this,
                       [this] { chooseImportFile(ImportKind::lockstat); });
    imports->addAction(tr("perf &lock (contention or report)…"), this,
                       [this] { chooseImportFile(ImportKind::perf_lock); });
    file->addSeparator();
    file->addAction(tr("Export view as &PNG…"), this, &MainWindow::exportViewPng);
    file->addAction(tr("Export chart as &SVG…"), this, &MainWindow::exportChartSvg);
    file->addAction(tr("Export &report (HTML, PDF)…"), QKeySequence(tr("Ctrl+E")), this,
                    &MainWindow::chooseReportFile);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Machine capabilities…"), this, [this] {
        auto* dialog = new DoctorDialog(collectorPath(), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    help->addAction(tr("&About hitmap"), this, [this] {
        auto* box = new QMessageBox(QMessageBox::Information, tr("About hitmap"), aboutText(),
                                    QMessageBox::Ok, this);
        box->setTextFormat(Qt::RichText);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
}

QString MainWindow::aboutText() const {
    const support::BuildInfo& b = support::build_info();
    return tr("<h3>%1</h3><p>Finds and explains lock and cacheline contention, with a model of "
              "the Linux memory-cgroup charging paths that replays five upstream "
              "investigations.</p><p>Build: %2, Qt %3.</p><p>Documentation: "
              "<code>README.md</code> "
              "and <code>docs/</code> in the source tree (REPRODUCTION.md, BENCHMARKS.md, "
              "LAYOUTS.md); <code>hitmap --help</code> and <code>hitmap-collect "
              "--help</code>.</p>")
        .arg(QString::fromStdString(support::version_text("hitmap")).toHtmlEscaped(),
             QString::fromUtf8(b.build.data(), static_cast<qsizetype>(b.build.size()))
                 .toHtmlEscaped(),
             QString::fromLatin1(qVersion()));
}

void MainWindow::openDatabase(const QString& path) {
    statusBar()->showMessage(tr("Opening %1…").arg(path));
    loader_->openDatabase(path);
}

void MainWindow::loadLayoutsIfShown() {
    // Every run's cacheline tables: 1.2 s for 1,000 runs (gui_load_bench), read only for the
    // tab that shows them.
    if (layouts_pending_ && tabs_->currentIndex() == LayoutTab) {
        layouts_pending_ = false;
        loader_->loadLayouts();
    }
}

void MainWindow::showTab(Tab tab) {
    tabs_->setCurrentIndex(tab);
}

bool MainWindow::showingEmptyState() const {
    return stack_->currentWidget() == empty_;
}

void MainWindow::showRuns(const RunList& list) {
    runs_ = list.runs;
    if (list.exists)
        rememberRecent(list.path);
    setWindowTitle(tr("hitmap — %1").arg(list.path));
    statusBar()->showMessage(
        tr("%1: %n run(s)", nullptr, static_cast<int>(runs_.size())).arg(list.path), 5000);
    const qint64 keep = run_ ? run_->run.id : -1;
    story_ = analysis::find_story(runs_);
    browser_->model()->setRuns(runs_);
    compare_->setRuns(runs_);
    scaling_->setRuns(runs_);
    layouts_->setStory(story_);
    if (story_ && keep < 0)
        scaling_->showWorkload(QString::fromStdString(story_->workload));
    layouts_pending_ = list.exists;
    loadLayoutsIfShown();
    if (runs_.empty()) {
        empty_->setPath(list.path, list.exists);
        stack_->setCurrentWidget(empty_);
        run_.reset();
        detail_->clear();
    } else {
        stack_->setCurrentWidget(tabs_);
        // Keep the run the user was looking at across reloads; otherwise start at the story's
        // "before" run, else at the first complete run with the most threads, where
        // contention shows.
        const bool still_there =
            std::any_of(runs_.begin(), runs_.end(), [keep](auto& r) { return r.id == keep; });
        const store::RunRecord* start = &runs_.front();
        for (const auto& r : runs_)
            if (r.status == store::RunStatus::complete && r.threads > start->threads)
                start = &r;
        browser_->selectRun(still_there ? keep : story_ ? story_->before : start->id);
    }
    emit runsShown();
}

void MainWindow::showOpenError(const QString& path, const QString& reason) {
    statusBar()->showMessage(tr("Cannot open %1").arg(path), 10000);
    // Non-blocking, so loading and the rest of the app keep running behind it.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot open database"),
                                tr("hitmap cannot open this file; it was left unchanged."),
                                QMessageBox::Ok, this);
    box->setInformativeText(reason);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::selectRun(qint64 run_id) {
    loader_->loadRun(run_id);
    if (auto partner = analysis::default_partner(runs_, run_id))
        compare_->setPair(run_id, *partner);
}

void MainWindow::showRun(std::shared_ptr<const RunDetail> detail) {
    run_ = std::move(detail);
    detail_->clear();
    cachelines_->setRun(run_);
    // The story's run opens on the line its story is about; any other on its hottest line.
    const auto story_line = story_ && story_->before == run_->run.id && run_->c2c
                                ? analysis::line_holding(*run_->c2c, story_->story.field)
                                : std::nullopt;
    if (!story_line || !cachelines_->selectLine(*story_line))
        cachelines_->selectRank(0);
    locks_->setRun(run_);
    layouts_->setRun(run_);
    scaling_->showWorkload(QString::fromStdString(run_->run.workload));
    emit runShown(run_->run.id);
}

void MainWindow::openRunDialog() {
    auto* dialog = new RunDialog(collectorPath(), loader_->path(), plugins_, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // New runs appear without reopening, the newest selected: reload whenever the child ends.
    connect(dialog, &RunDialog::collectionFinished, this, &MainWindow::reloadAndSelectNewest);
    dialog->open();
}

void MainWindow::reloadAndSelectNewest() {
    const auto newest = [this] {
        qint64 id = 0;
        for (const store::RunRecord& r : runs_)
            id = std::max<qint64>(id, r.id);
        return id;
    };
    const qint64 before = newest();
    // Once, on the reload's list.
    auto* once = new QObject(this);
    connect(this, &MainWindow::runsShown, once, [this, once, before, newest] {
        if (const qint64 id = newest(); id > before)
            browser_->selectRun(id);
        once->deleteLater();
    });
    openDatabase(loader_->path());
}

void MainWindow::chooseImportFile(ImportKind kind) {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Import"), QString(), tr("Text files (*.txt *.log *.csv);;All files (*)"));
    if (!path.isEmpty())
        importFile(kind, path);
}

void MainWindow::importFile(ImportKind kind, const QString& path) {
    const QString command = kind == ImportKind::perf_c2c   ? QStringLiteral("perf-c2c")
                            : kind == ImportKind::lockstat ? QStringLiteral("lockstat")
                                                           : QStringLiteral("perf-lock");
    auto* job = new CollectorJob(collectorPath(), plugins_, this);
    connect(job, &CollectorJob::finished, this, [this, job, path](bool ok, const QString& error) {
        job->deleteLater();
        if (!ok) {
            statusBar()->showMessage(tr("Import failed"), 10000);
            // Non-blocking; the collector's own one line says what is wrong with the
            // file.
            auto* box = new QMessageBox(QMessageBox::Warning, tr("Import failed"),
                                        tr("%1 was not imported; the database is unchanged.")
                                            .arg(QFileInfo(path).fileName()),
                                        QMessageBox::Ok, this);
            box->setInformativeText(error);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
            emit importFinished(false, error);
            return;
        }
        statusBar()->showMessage(tr("Imported %1").arg(path), 5000);
        reloadAndSelectNewest();
        emit importFinished(true, tr("Imported %1").arg(path));
    });
    statusBar()->showMessage(tr("Importing %1…").arg(path));
    job->start({QStringLiteral("import"), command, path, QStringLiteral("--db"), loader_->path()});
}

void MainWindow::exportViewPng() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export view"), QString(), tr("PNG images (*.png)"));
    if (!path.isEmpty() && !save_png(tabs_->currentWidget(), path))
        QMessageBox::warning(this, tr("Export failed"), tr("Cannot write %1").arg(path));
}

void MainWindow::exportChartSvg() {
    QChartView* view = tabs_->currentIndex() == ScalingTab   ? scaling_->chartView()
                       : tabs_->currentIndex() == CompareTab ? compare_->chartView()
                       : tabs_->currentIndex() == LocksTab   ? locks_->chartView()
                                                             : nullptr;
    if (!view) {
        QMessageBox::information(this, tr("Export chart"),
                                 tr("The Compare, Scaling and Locks tabs have charts to export."));
        return;
    }
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export chart"), QString(), tr("SVG images (*.svg)"));
    if (!path.isEmpty() && !save_svg(view, path))
        QMessageBox::warning(this, tr("Export failed"), tr("Cannot write %1").arg(path));
}

bool MainWindow::exportReport(const QString& path, ReportFormat format) {
    analysis::ReportRequest request;
    if (const auto pair = compare_->pair(); tabs_->currentIndex() == CompareTab && pair)
        request.runs = {pair->first, pair->second};
    else if (run_)
        request.runs = {run_->run.id};
    else
        return false;
    report_path_ = path;
    report_format_ = format;
    statusBar()->showMessage(tr("Writing %1…").arg(path));
    loader_->loadReport(request);
    return true;
}

void MainWindow::chooseReportFile() {
    QString filter;
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export report"), QString(),
                                     tr("HTML report (*.html);;PDF report (*.pdf)"), &filter);
    if (path.isEmpty())
        return;
    const ReportFormat format = path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive) ||
                                        filter.contains(QLatin1String("PDF"))
                                    ? ReportFormat::pdf
                                    : ReportFormat::html;
    if (!exportReport(path, format))
        QMessageBox::information(this, tr("Export report"),
                                 tr("Select a run, or a pair on the Compare tab, to export."));
}

void MainWindow::writeReport(const analysis::Report& report) {
    try {
        write_report(report, report_format_, report_path_);
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Export failed"), QString::fromStdString(e.what()));
        return;
    }
    statusBar()->showMessage(tr("Wrote %1").arg(report_path_), 5000);
    emit reportWritten(report_path_);
}

void MainWindow::rememberRecent(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(kRecentKey, recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recent_->clear();
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    for (const QString& path : recent)
        recent_->addAction(path, this, [this, path] { openDatabase(path); });
    recent_->setEnabled(!recent.isEmpty());
}

} // namespace hitmap::gui
