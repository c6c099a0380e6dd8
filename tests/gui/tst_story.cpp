// What the app opens on, on tests/data/story.db (made like `make run`'s default suite, small:
// tests/data/README.md): every default view on the workload story its runs tell, and the
// Compare tab showing exactly the pair its selectors name after any change of either. The runs
// the views must show are found here from the run list itself (the newest traced run of the
// story's "before" variant, ...), not from the code under test.
#include "collector/analysis/story.hpp"
#include "fixture.hpp"
#include "gui/app/main_window.hpp"
#include "gui/models/table_model.hpp"
#include "gui/views/cacheline_table.hpp"
#include "gui/views/compare_view.hpp"
#include "gui/views/layout_view.hpp"
#include "gui/views/scaling_view.hpp"
#include "gui/views/table_view.hpp"

#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLineSeries>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

using namespace hitmap;
using namespace hitmap::gui;

namespace {

// The story the database was made for, as its workload's metadata tells it.
const engine::WorkloadInfo& story_workload() {
    const engine::WorkloadInfo* info = analysis::first_story_workload();
    Q_ASSERT(info);
    return *info;
}

// The newest complete run that `keep` accepts, or null.
template <class Keep>
const store::RunRecord* newest(const std::vector<store::RunRecord>& runs, Keep keep) {
    const store::RunRecord* found = nullptr;
    for (const auto& r : runs)
        if (r.status == store::RunStatus::complete && keep(r) && (!found || r.id > found->id))
            found = &r;
    return found;
}

// The labels of the bar sets of the chart in `view` ("run 3: page-counter-charge v6.0, 2 threads,
// traced", ...).
QStringList bar_labels(QChartView* view) {
    QStringList labels;
    for (QAbstractSeries* s : view->chart()->series())
        if (auto* bars = qobject_cast<QBarSeries*>(s))
            for (QBarSet* set : bars->barSets())
                labels << set->label();
    return labels;
}

// The text of column `title` in the table's current row.
QString current_cell(DataTable* table, const QString& title) {
    TableModel* model = table->model();
    for (int c = 0; c < model->columnCount(); ++c)
        if (model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString() == title)
            return model->index(table->currentSourceRow(), c).data().toString();
    return {};
}

} // namespace

class TestStory : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString db_;
    std::vector<store::RunRecord> runs_;
    qint64 before_ = 0, after_ = 0; // the story's pair, as the run list gives it

    // Waits until the window has answered every request it made.
    static void settle(MainWindow& w) {
        QTRY_VERIFY_WITH_TIMEOUT(!w.loader()->busy(), test::kWaitMs);
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        db_ = dir_.filePath(QStringLiteral("story.db"));
        QVERIFY(QFile::copy(QStringLiteral(HITMAP_TEST_DATA "/story.db"), db_));
        runs_ = read_run_list(db_).runs;
        const engine::WorkloadInfo& info = story_workload();
        const store::RunRecord* before = newest(runs_, [&](const store::RunRecord& r) {
            return r.workload == info.name && r.variant == info.story->before &&
                   r.source == store::Source::traced;
        });
        QVERIFY2(before, "story.db holds no traced run of the story's before variant");
        const store::RunRecord* after = newest(runs_, [&](const store::RunRecord& r) {
            return r.workload == info.name && r.variant == info.story->after &&
                   r.source == before->source && r.c2c_source == before->c2c_source &&
                   r.threads == before->threads;
        });
        QVERIFY2(after, "story.db holds no matching run of the story's after variant");
        before_ = before->id;
        after_ = after->id;
        // The database is made like the default suite: measured runs of both variants at the
        // same threads too, which a default pair must never mix in.
        QVERIFY(newest(runs_, [&](const store::RunRecord& r) {
            return r.workload == info.name && r.variant == info.story->before &&
                   r.source == store::Source::measured && r.threads == before->threads;
        }));
    }

    // Cachelines on the story's before run with the story field's line selected; Compare on
    // before vs after of one source; Scaling on the story's workload with its simulated curves
    // up to the seed machine's CPUs; Layout on the story's struct, before vs after, each
    // coloured by its run.
    void defaultViewsShowTheStory() {
        const engine::WorkloadInfo& info = story_workload();
        MainWindow w;
        w.resize(1366, 768);
        w.show();
        QSignalSpy shown(&w, &MainWindow::runShown);
        QSignalSpy compared(&w, &MainWindow::compareShown);
        w.openDatabase(db_);
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1 && compared.count() >= 1, test::kWaitMs);
        settle(w);

        QVERIFY(w.currentRun());
        QCOMPARE(w.currentRun()->run.id, before_);
        const QString fields = current_cell(w.cachelines()->table(), QStringLiteral("Fields"));
        QVERIFY2(fields.split(QLatin1Char(',')).contains(QString::fromStdString(info.story->field)),
                 qPrintable(fields));

        QCOMPARE(w.compare()->pair(), (std::pair<qint64, qint64>{before_, after_}));
        const QStringList bars = bar_labels(w.compare()->chartView());
        QCOMPARE(bars.size(), 2);
        QVERIFY2(bars[0].startsWith(QStringLiteral("run %1:").arg(before_)), qPrintable(bars[0]));
        QVERIFY2(bars[1].startsWith(QStringLiteral("run %1:").arg(after_)), qPrintable(bars[1]));
        QVERIFY2(!w.compare()->summaryText().contains(QStringLiteral("different sources")),
                 qPrintable(w.compare()->summaryText()));

        QCOMPARE(w.scaling()->workload(), QString::fromStdString(info.name));
        int simulated = 0;
        qreal most_threads = 0;
        for (QAbstractSeries* s : w.scaling()->chartView()->chart()->series())
            if (auto* line = qobject_cast<QLineSeries*>(s);
                line && line->name().contains(QStringLiteral("simulated"))) {
                ++simulated;
                for (const QPointF& p : line->points())
                    most_threads = std::max(most_threads, p.x());
            }
        QVERIFY(simulated >= 2); // before and after at least
        QCOMPARE(most_threads, qreal(info.seed_machine->cpus));

        w.showTab(MainWindow::LayoutTab);
        QTRY_VERIFY_WITH_TIMEOUT(
            w.layouts()->header(LayoutView::B).contains(QStringLiteral("run %1").arg(after_)),
            test::kWaitMs);
        QCOMPARE(w.layouts()->structName(), QString::fromStdString(info.story->layout_struct));
        QVERIFY2(w.layouts()
                     ->header(LayoutView::A)
                     .contains(QStringLiteral("Heat: HITM of run %1,").arg(before_)),
                 qPrintable(w.layouts()->header(LayoutView::A)));
        QVERIFY2(w.layouts()
                     ->header(LayoutView::B)
                     .contains(QStringLiteral("Heat: HITM of run %1,").arg(after_)),
                 qPrintable(w.layouts()->header(LayoutView::B)));
        QVERIFY(!w.layouts()->strips(LayoutView::A).empty());
        QVERIFY(!w.layouts()->strips(LayoutView::B).empty());
    }

    // Whatever either selector is changed to, and however fast, what the tab shows once the
    // loader is idle is the selected pair: the chart's bar sets, the hint and the summary name
    // those runs; a pair of two sources says so.
    void compareShowsTheSelectedPair() {
        MainWindow w;
        w.resize(1366, 768);
        w.show();
        QSignalSpy shown(&w, &MainWindow::runShown);
        w.openDatabase(db_);
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, test::kWaitMs);
        settle(w);
        w.showTab(MainWindow::CompareTab);
        CompareView* compare = w.compare();
        const auto check_shown = [&] {
            settle(w);
            const auto pair = compare->pair();
            QVERIFY(pair);
            const auto& [before, after] = *pair;
            const auto record = [&](qint64 id) {
                return *std::find_if(runs_.begin(), runs_.end(),
                                     [&](const store::RunRecord& r) { return r.id == id; });
            };
            const store::RunRecord b = record(before), a = record(after);
            const QString summary = compare->summaryText();
            QVERIFY2(!summary.startsWith(QStringLiteral("Reading")), qPrintable(summary));
            const bool mixed = b.source != a.source || b.c2c_source != a.c2c_source;
            QCOMPARE(summary.contains(QStringLiteral("different sources")), mixed);
            if (b.c2c_source && a.c2c_source) {
                const QStringList bars = bar_labels(compare->chartView());
                QCOMPARE(bars.size(), 2);
                QVERIFY2(bars[0].startsWith(QStringLiteral("run %1:").arg(before)),
                         qPrintable(bars[0]));
                QVERIFY2(bars[1].startsWith(QStringLiteral("run %1:").arg(after)),
                         qPrintable(bars[1]));
                QVERIFY2(compare->predictionText().contains(QStringLiteral(" %1 ").arg(before)),
                         qPrintable(compare->predictionText()));
            } else {
                // No cacheline data on a side: no chart of another pair left behind.
                QVERIFY(bar_labels(compare->chartView()).isEmpty());
                QVERIFY(compare->predictionText().isEmpty());
            }
        };
        check_shown();
        QComboBox* before = compare->beforePicker();
        QComboBox* after = compare->afterPicker();
        QVERIFY(before->count() >= 4);
        // One selector, then the other, then both before anything arrives, and back to a pair
        // of one source.
        const auto index_of = [](QComboBox* c, qint64 id) {
            return c->findData(QVariant::fromValue(id));
        };
        for (int i = 0; i < before->count(); i += std::max(1, before->count() / 5)) {
            before->setCurrentIndex(i);
            check_shown();
            after->setCurrentIndex(after->count() - 1 - i);
            check_shown();
        }
        before->setCurrentIndex(0);
        after->setCurrentIndex(1);
        before->setCurrentIndex(index_of(before, after_));
        after->setCurrentIndex(index_of(after, before_));
        check_shown();
        QCOMPARE(compare->pair(), (std::pair<qint64, qint64>{after_, before_}));
    }
};

QTEST_MAIN(TestStory)
#include "tst_story.moc"
