#pragma once
// The main window: run browser on the left; cachelines (table + line detail), compare, scaling,
// locks and struct layouts as tabs; the empty state when there is nothing to show. All store reads
// go through the DbLoader, off the GUI thread.
#include "collector/analysis/story.hpp"
#include "collector/c2c/replay_result.hpp"
#include "gui/export/report_export.hpp"
#include "gui/models/db_loader.hpp"

#include <QMainWindow>
#include <memory>

class QMenu;
class QStackedWidget;
class QTabWidget;

namespace hitmap::gui {

class CachelineTable;
class CompareView;
class EmptyState;
class LayoutView;
class LineDetailView;
class LocksView;
class RunBrowser;
class ScalingView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum Tab { CachelinesTab, CompareTab, ScalingTab, LocksTab, LayoutTab };
    // File → Import: what the file holds, as `hitmap-collect import` names it.
    enum class ImportKind { perf_c2c, lockstat, perf_lock };

    explicit MainWindow(QWidget* parent = nullptr);

    void openDatabase(const QString& path);
    void showTab(Tab tab);
    // The collector the run dialog, File → Import and the doctor run: by default
    // hitmap-collect beside the app; `hitmap --collector PATH` or a test's scripted one.
    const QString& collectorPath() const { return collector_; }
    void setCollectorPath(const QString& path) { collector_ = path; }
    // Workload plugins the run dialog passes on to the collector.
    void setPlugins(const QStringList& plugins) { plugins_ = plugins; }

    // For tests and the screenshot mode.
    DbLoader* loader() const { return loader_; }
    RunBrowser* runBrowser() const { return browser_; }
    CachelineTable* cachelines() const { return cachelines_; }
    LineDetailView* lineDetail() const { return detail_; }
    CompareView* compare() const { return compare_; }
    ScalingView* scaling() const { return scaling_; }
    LocksView* locks() const { return locks_; }
    LayoutView* layouts() const { return layouts_; }
    const std::vector<store::RunRecord>& runs() const { return runs_; }
    std::shared_ptr<const RunDetail> currentRun() const { return run_; }
    // The workload story the open database's runs tell, which the views open on.
    const std::optional<analysis::StoryRuns>& story() const { return story_; }
    bool showingEmptyState() const;
    // File → Export report without the file dialog: the compared pair on the Compare tab,
    // else the selected run; false when there is neither.
    bool exportReport(const QString& path, ReportFormat format);
    // File → Import without the file dialog: `hitmap-collect import` into the open database,
    // then the list reloaded with the new run selected; importFinished says how it went.
    void importFile(ImportKind kind, const QString& path);
    // Help → About's text: version, commit, build, Qt, where the documentation is.
    QString aboutText() const;

signals:
    // The view has new data to show: a run list, a run, a compare pair.
    void runsShown();
    void runShown(qint64 run_id);
    void compareShown();
    void reportWritten(const QString& path);
    // `message`: the collector's one-line error when !ok, else what was imported.
    void importFinished(bool ok, const QString& message);

private:
    void buildMenus();
    void showRuns(const RunList& list);
    void showOpenError(const QString& path, const QString& reason);
    void showRun(std::shared_ptr<const RunDetail> detail);
    // Asks for the Layout tab's catalog of the open database once that tab is shown.
    void loadLayoutsIfShown();
    void selectRun(qint64 run_id);
    void openRunDialog();
    void chooseImportFile(ImportKind kind);
    // Reloads the list and selects the newest run when the reload brings a new one (after a
    // collection or an import).
    void reloadAndSelectNewest();
    void exportViewPng();
    void exportChartSvg();
    void chooseReportFile();
    void writeReport(const analysis::Report& report);
    void rememberRecent(const QString& path);
    void rebuildRecentMenu();

    DbLoader* loader_;
    QStackedWidget* stack_;
    EmptyState* empty_;
    QTabWidget* tabs_;
    RunBrowser* browser_;
    CachelineTable* cachelines_;
    LineDetailView* detail_;
    CompareView* compare_;
    ScalingView* scaling_;
    LocksView* locks_;
    LayoutView* layouts_;
    QMenu* recent_;
    std::vector<store::RunRecord> runs_;
    std::optional<analysis::StoryRuns> story_;
    std::shared_ptr<const RunDetail> run_;
    QString collector_;
    QStringList plugins_;
    bool layouts_pending_ = false; // the open database's layout catalog is not yet asked for
    QString report_path_;          // where the report being built goes
    ReportFormat report_format_ = ReportFormat::html;
};

} // namespace hitmap::gui
