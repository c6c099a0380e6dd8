// The Layout tab offscreen: a built-in layout line by line, a second one beside it with the
// fields that moved lines outlined, a run's heat on the boxes, the window's default (the
// selected run's hottest struct), and the running kernel's layout or the reason it has none.
#include "collector/analysis/comparison.hpp"
#include "collector/btf/btf_file.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "fixture.hpp"
#include "gui/app/main_window.hpp"
#include "gui/models/db_loader.hpp"
#include "gui/models/layout_rows.hpp"
#include "gui/views/layout_view.hpp"
#include "gui/views/run_browser.hpp"
#include "gui/views/strip_widget.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>

using namespace hitmap;
using namespace hitmap::gui;

namespace {

struct FoundBox {
    StripWidget* strip = nullptr; // grab() is not const
    const StripBox* box = nullptr;
};

FoundBox find_box(const std::vector<StripWidget*>& strips, const QString& name) {
    for (StripWidget* s : strips)
        for (const StripBox& b : s->strip()->boxes)
            if (b.name == name)
                return {s, &b};
    return {};
}

// The fill of a box as drawn: near its top edge, clear of the border and the centred label.
QColor box_fill(const FoundBox& found) {
    const QImage image = found.strip->grab().toImage();
    const double inner = found.strip->width() - 16; // StripWidget's 8-pixel margins
    const int x = static_cast<int>(8 + (found.box->x + found.box->width / 2) * inner);
    return image.pixelColor(x, 20 + 5); // below the 20-pixel title
}

} // namespace

class TestLayoutView : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString db_;
    qint64 v60_ = 0, v61_ = 0;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        const test::Fixture fixture = test::make_fixture(dir_);
        QVERIFY2(fixture.error.isEmpty(), qPrintable(fixture.error));
        db_ = fixture.db;
        v60_ = fixture.v60;
        v61_ = fixture.v61;
        QVERIFY(v60_ && v61_);
    }

    void pageCounterLineByLineAndAgainstV61() {
        LayoutView view;
        view.resize(1200, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.chooseStruct(QStringLiteral("page_counter")));
        QVERIFY(
            view.chooseLayout(LayoutView::A, LayoutView::Source::built_in, QStringLiteral("v6.0")));
        QVERIFY(view.chooseLayout(LayoutView::B, LayoutView::Source::none));
        // 112 bytes: two lines, each a strip of its fields, none coloured without a run.
        const auto& v60 = *engine::find_builtin_layout("page_counter", "v6.0");
        QCOMPARE(view.strips(LayoutView::A).size(), std::size_t((v60.size + 63) / 64));
        QVERIFY(view.strips(LayoutView::B).empty());
        QCOMPARE(view.strips(LayoutView::A)[0]->strip()->boxes.size(), std::size_t(8));
        for (const StripWidget* s : view.strips(LayoutView::A)) {
            QVERIFY(!s->strip()->counted);
            for (const StripBox& b : s->strip()->boxes)
                QVERIFY(!b.counts && !b.moved);
        }
        QVERIFY(view.header(LayoutView::A).contains(QStringLiteral("112 bytes, 2 lines")));

        QVERIFY(
            view.chooseLayout(LayoutView::B, LayoutView::Source::built_in, QStringLiteral("v6.1")));
        QCOMPARE(view.strips(LayoutView::A).size(), std::size_t(2));
        QCOMPARE(view.strips(LayoutView::B).size(), std::size_t(3)); // 192 bytes
        for (const char* limit : {"min", "low", "high", "max"})
            for (const LayoutView::Side side : {LayoutView::A, LayoutView::B}) {
                const FoundBox found = find_box(view.strips(side), QString::fromLatin1(limit));
                QVERIFY2(found.box && found.box->moved, limit);
            }
        QVERIFY(!find_box(view.strips(LayoutView::B), QStringLiteral("usage")).box->moved);
        QVERIFY2(view.diffSummary().contains(
                     QStringLiteral("Moved off usage's line: min, low, high, max, emin, "
                                    "min_usage, children_min_usage; moved onto it: none")),
                 qPrintable(view.diffSummary()));
        const QColor outline = [&] {
            const FoundBox max = find_box(view.strips(LayoutView::B), QStringLiteral("max"));
            const QImage image = max.strip->grab().toImage();
            const double inner = max.strip->width() - 16;
            return image.pixelColor(static_cast<int>(8 + max.box->x * inner + 2), 50);
        }();
        QVERIFY2(outline.blue() > 150 && outline.red() < 100, qPrintable(outline.name()));
    }

    // A sampled heat run's strips know what its source could not count, so its boxes' store
    // HITMs and transfers read "–" rather than 0.
    void stripsCarryWhatTheHeatRunsSourceCounted() {
        analysis::LayoutMap map =
            analysis::map_layout(*engine::find_builtin_layout("page_counter", "v6.0"));
        analysis::MapHeat heat;
        heat.run = 1;
        heat.traced_ops = 1000;
        heat.known.store_hitm = false;
        heat.known.store_shared = false;
        map.heat = heat;
        const StripLayout strip = line_strip(map, map.lines[0]);
        QVERIFY(strip.counted);
        QVERIFY(strip.known == map.heat->known);
        QVERIFY(!strip.known.transfers());
        QVERIFY(strip.basis ==
                (analysis::RateBasis{analysis::RateBasis::Kind::per_thousand_ops, 1000}));
    }

    void runHeatColoursTheUsageBox() {
        LayoutView view;
        view.resize(1200, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setCatalog(std::make_shared<const analysis::LayoutCatalog>(read_layout_catalog(db_)));
        QVERIFY(view.chooseStruct(QStringLiteral("mem_cgroup")));
        QVERIFY(
            view.chooseLayout(LayoutView::A, LayoutView::Source::stored, QStringLiteral("v6.0")));
        QVERIFY(view.chooseHeat(LayoutView::A, std::nullopt));
        // The engine's mem_cgroup places fields on a quarter of its lines: one strip each.
        QVERIFY(!view.strips(LayoutView::A).empty());
        QVERIFY(view.strips(LayoutView::A).size() < 4032 / 64);
        FoundBox usage = find_box(view.strips(LayoutView::A), QStringLiteral("memory.usage"));
        QVERIFY(usage.box && !usage.box->counts);
        const QColor grey = box_fill(usage);
        QCOMPARE(grey.red(), grey.green());

        QVERIFY(view.chooseHeat(LayoutView::A, v60_));
        usage = find_box(view.strips(LayoutView::A), QStringLiteral("memory.usage"));
        QVERIFY(usage.box && usage.box->counts);
        QVERIFY(usage.box->counts->transfers() > 0);
        // Coloured by HITM per 1,000 traced operations; the struct's hottest field by that
        // metric (css.parent in this run: 21.9 against memory.usage's 11.8) at the red end.
        const QColor heat = box_fill(usage);
        QVERIFY2(heat.red() > heat.green() + 40, qPrintable(heat.name()));
        FoundBox hottest;
        double most = 0;
        for (StripWidget* s : view.strips(LayoutView::A))
            for (const StripBox& b : s->strip()->boxes)
                if (b.counts && strip_value(*s->strip(), *b.counts) > most) {
                    most = strip_value(*s->strip(), *b.counts);
                    hottest = {s, &b};
                }
        QVERIFY(hottest.box);
        const QColor red = box_fill(hottest);
        QVERIFY2(red.red() > red.green() + 80, qPrintable(red.name()));
        QVERIFY(view.diffSummary().contains(QStringLiteral("HITM per 1,000 traced operations")));
        QVERIFY(
            view.header(LayoutView::A).contains(QStringLiteral("Heat: HITM of run %1,").arg(v60_)));
        // The heat says its source: the fixture's runs are replayed traces.
        QVERIFY(view.header(LayoutView::A).contains(QStringLiteral("cachelines: software")));
        // v6.0 has no memory.local_watermark; a v6.15 layout does, and run 1 never counted it.
        QVERIFY(view.chooseLayout(LayoutView::A, LayoutView::Source::built_in,
                                  QStringLiteral("v6.15")));
        const FoundBox local =
            find_box(view.strips(LayoutView::A), QStringLiteral("memory.local_watermark"));
        QVERIFY(local.box && !local.box->counts && local.strip->strip()->counted);
        QVERIFY(view.header(LayoutView::A)
                    .contains(QStringLiteral("recorded under another layout (v6.0)")));
    }

    // The tab follows the selected run until a layout is chosen there.
    void windowShowsTheRunsHottestStruct() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy shown(&w, &MainWindow::runsShown);
        QSignalSpy catalogs(w.loader(), &DbLoader::layoutsLoaded);
        w.openDatabase(db_);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, test::kWaitMs);
        w.runBrowser()->selectRun(v61_);
        QTRY_VERIFY_WITH_TIMEOUT(w.currentRun() && w.currentRun()->run.id == v61_, test::kWaitMs);
        // Every run's cacheline tables are read for this tab only, once it is shown: nothing
        // has asked for them once the loader has answered every request (the selection's
        // compare pair may still be loading when the run arrives).
        QTRY_VERIFY_WITH_TIMEOUT(!w.loader()->busy(), test::kWaitMs);
        QCOMPARE(catalogs.count(), 0);
        w.showTab(MainWindow::LayoutTab);
        QTRY_COMPARE_WITH_TIMEOUT(catalogs.count(), 1, test::kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(w.layouts()
                                     ->header(LayoutView::A)
                                     .contains(QStringLiteral("Heat: HITM of run %1,").arg(v61_)),
                                 test::kWaitMs);
        // Which object is hottest is the run's (v6.1's padding can leave the global flush
        // threshold hotter than any mem_cgroup line): the view shows that one's struct, as the
        // run recorded it, every counted field coloured from the run.
        QVERIFY(w.currentRun() && w.currentRun()->run.id == v61_);
        const engine::ObjectInfo* hottest = analysis::hottest_object(*w.currentRun()->c2c);
        QVERIFY(hottest);
        QCOMPARE(w.layouts()->structName(), QString::fromStdString(hottest->layout.type->name));
        const QString header = w.layouts()->header(LayoutView::A);
        QVERIFY2(header.contains(QString::fromStdString(hottest->layout.version)) &&
                     header.contains(QStringLiteral("stored with run")),
                 qPrintable(header));
        QVERIFY(!w.layouts()->strips(LayoutView::A).empty());
        for (const StripWidget* s : w.layouts()->strips(LayoutView::A)) {
            QVERIFY(s->strip()->counted);
            for (const StripBox& b : s->strip()->boxes)
                QVERIFY2(b.counts, qPrintable(b.name)); // a traced run counts every placed field
        }
    }

    // Drawn when the kernel's BTF has the struct with every field the engine needs, else the
    // reason, in the header; never a crash.
    void runningKernelLayoutOrItsReason() {
        if (!std::filesystem::exists(btf::kKernelBtfPath))
            QSKIP("no /sys/kernel/btf/vmlinux on this machine");
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        LayoutView* view = w.layouts();
        QVERIFY(view->chooseStruct(QStringLiteral("page_counter")));
        QVERIFY(view->chooseLayout(LayoutView::A, LayoutView::Source::kernel));
        QTRY_VERIFY_WITH_TIMEOUT(!view->header(LayoutView::A).contains(QStringLiteral("Reading")),
                                 test::kWaitMs);
        const QString header = view->header(LayoutView::A);
        QVERIFY2(header.contains(QStringLiteral("BTF")) ||
                     header.contains(QStringLiteral("kernel")),
                 qPrintable(header));
        QVERIFY2(!view->strips(LayoutView::A).empty() ||
                     header.contains(QStringLiteral("Running kernel")),
                 qPrintable(header));
    }
};

QTEST_MAIN(TestLayoutView)
#include "tst_layout_view.moc"
