// The models and plain-value layers of the app, on a database the collector writes here:
// every model under QAbstractItemModelTester, the strip geometry of the v6.0 and v6.1
// layouts, scaling series, comparisons with a stored prediction, latest-request-wins loading.
#include "collector/analysis/cacheline_columns.hpp"
#include "collector/analysis/comparison.hpp"
#include "collector/analysis/scaling.hpp"
#include "collector/analysis/trace_replay.hpp"
#include "collector/run/progress.hpp"
#include "engine/layout/layout_loader.hpp"
#include "fixture.hpp"
#include "gui/models/c2c_rows.hpp"
#include "gui/models/db_loader.hpp"
#include "gui/models/lock_rows.hpp"
#include "gui/models/number_text.hpp"
#include "gui/models/progress_line.hpp"
#include "gui/models/run_tree_model.hpp"
#include "gui/models/shown_text.hpp"
#include "gui/models/strip_layout.hpp"
#include "gui/models/table_model.hpp"
#include "gui/models/unknown_text.hpp"
#include "tests/support/lock_table.hpp"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

using namespace hitmap;
using namespace hitmap::gui;
using hitmap::testing::lock_table;

namespace {

const StripBox* box_named(const StripLayout& s, const QString& name) {
    for (const auto& b : s.boxes)
        if (b.name == name)
            return &b;
    return nullptr;
}

template <class Row>
void check_table(std::vector<Row> rows, const std::vector<Column<Row>>& columns) {
    TableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const int n = static_cast<int>(rows.size());
    model.setRows(std::move(rows), columns);
    QCOMPARE(model.rowCount(), n);
    QCOMPARE(model.columnCount(), static_cast<int>(columns.size()));
    // Sorting and filtering through the proxy exercise every role the views use.
    QSortFilterProxyModel proxy;
    QAbstractItemModelTester proxy_tester(&proxy,
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    proxy.setSortRole(SortRole);
    for (int c = 0; c < model.columnCount(); ++c) {
        proxy.sort(c, Qt::DescendingOrder);
        for (int r = 0; r < model.rowCount(); ++r) {
            const QVariant heat = model.index(r, c).data(HeatRole);
            if (heat.isValid())
                QVERIFY(heat.toDouble() >= 0 && heat.toDouble() <= 1.0);
        }
    }
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

} // namespace

class TestGuiModels : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString db_;
    RunList list_;
    qint64 v60_ = 0, v61_ = 0;

private slots:
    // The progress protocol end to end: what the collector's Progress writes with
    // --progress=json is what the run dialog's parser reads, event by event.
    void progressLinesRoundTripFromTheCollector() {
        char* buffer = nullptr;
        std::size_t size = 0;
        std::FILE* out = open_memstream(&buffer, &size);
        QVERIFY(out);
        {
            collector::Progress progress(collector::ProgressStyle::json, out);
            progress.begin(1, 4, "page-counter-charge v6.0 x2 #7");
            progress.update(0.5, "replaying trace");
            progress.end(false, "cancelled");
        }
        std::fclose(out);
        const QList<QByteArray> lines = QByteArray(buffer, qsizetype(size)).split('\n');
        std::free(buffer);
        QCOMPARE(lines.size(), 4); // three lines and the empty rest after the last newline
        const auto begin = parse_progress_line(lines[0]);
        QVERIFY(begin);
        QCOMPARE(begin->event, QStringLiteral("begin"));
        QCOMPARE(begin->index, 1);
        QCOMPARE(begin->total, 4);
        QCOMPARE(begin->label, QStringLiteral("page-counter-charge v6.0 x2 #7"));
        QCOMPARE(begin->overall(), 0.25);
        const auto mid = parse_progress_line(lines[1]);
        QVERIFY(mid);
        QCOMPARE(mid->fraction, 0.5);
        QCOMPARE(mid->overall(), 0.375);
        const auto end = parse_progress_line(lines[2]);
        QVERIFY(end);
        QCOMPARE(end->event, QStringLiteral("end"));
        QVERIFY(!end->ok);
        QCOMPARE(end->summary, QStringLiteral("cancelled"));
        QCOMPARE(end->overall(), 0.5);
        QVERIFY(!parse_progress_line("hitmap-collect: error: unknown workload 'x'"));
        QVERIFY(!parse_progress_line("{\"event\": \"other\"}"));
    }

    void initTestCase() {
        QVERIFY(dir_.isValid());
        const test::Fixture fixture = test::make_fixture(dir_);
        QVERIFY2(fixture.error.isEmpty(), qPrintable(fixture.error));
        db_ = fixture.db;
        v60_ = fixture.v60;
        v61_ = fixture.v61;
        list_ = read_run_list(db_);
        QVERIFY(v60_ && v61_);
        // The v6.0 trace under the v6.1 run's layouts (mem_cgroup v6.1 holds page_counter v6.1),
        // stored as `predict --store` stores it: the compare view shows a prediction only for
        // the after run's own layouts. As that run recorded them: the built-in v6.1 has gained a
        // field (objcg) since the fixture was made.
        {
            store::Database db = store::Database::open(db_.toStdString());
            const RunDetail v61 = read_run_detail(db_, v61_);
            const auto o =
                std::find_if(v61.c2c->objects.begin(), v61.c2c->objects.end(),
                             [](const auto& o) { return o.layout.type->name == "mem_cgroup"; });
            QVERIFY(o != v61.c2c->objects.end());
            const store::RunRecord v60 = *db.run(v60_);
            const store::C2cData recorded = *store::read_c2c(db, v60_);
            c2c::ReplayConfig config;
            config.model_cpus = recorded.result.model_cpus;
            config.layouts.emplace("mem_cgroup", o->layout);
            const auto trace = analysis::load_trace(db, v60, recorded);
            analysis::store_prediction(db, v60, recorded,
                                       c2c::replay(trace->threads, recorded.objects, config),
                                       config.layouts);
        }
        list_ = read_run_list(db_);
        QCOMPARE(list_.runs.size(), std::size_t(5));
    }

    void runTree() {
        RunTreeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns(list_.runs);
        QCOMPARE(model.rowCount(), 2); // page-counter-charge, res-counter-charge
        const QModelIndex workload = model.index(0, 0);
        QCOMPARE(workload.data().toString(), QStringLiteral("page-counter-charge"));
        QCOMPARE(model.rowCount(workload), 3); // v6.0, the prediction, v6.1
        const QModelIndex run = model.indexOfRun(v60_);
        QVERIFY(run.isValid());
        QCOMPARE(run.data(RunTreeModel::RunIdRole).toLongLong(), v60_);
        QCOMPARE(run.parent().data().toString(), QStringLiteral("v6.0"));
        QCOMPARE(run.siblingAtColumn(RunTreeModel::Threads).data().toInt(), 2);
        QVERIFY(!workload.data(RunTreeModel::RunIdRole).isValid());
        model.setRuns({});
        QCOMPARE(model.rowCount(), 0);
    }

    // Names of any length are shown bounded, cut between graphemes, at the same cost for a
    // megabyte as for a line; the whole text goes in the tooltip, escaped and wrapping.
    // One grouping everywhere in the app, whatever the machine's locale (issue 35: a table
    // said 184200 beside a key's 184,200).
    void numbersAreGroupedAlike() {
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        QCOMPARE(number_text(std::uint64_t{1500000}), QStringLiteral("1,500,000"));
        QCOMPARE(number_text(1500000.0, 1), QStringLiteral("1,500,000.0"));
        QCOMPARE(number_text(31.94, 1), QStringLiteral("31.9"));
        QLocale::setDefault(QLocale::c());
    }

    void shownTextIsBounded() {
        QCOMPARE(shown_text(QStringLiteral("v6.0")), QStringLiteral("v6.0"));
        const QString name =
            QStringLiteral("head-") + QString(1 << 20, QLatin1Char('x')) + QStringLiteral("-tail");
        const QString shown = shown_text(name);
        QVERIFY2(shown.size() <= kNameChars, qPrintable(QString::number(shown.size())));
        QVERIFY(shown.startsWith(QStringLiteral("head-xx")) &&
                shown.endsWith(QStringLiteral("xx-tail")));
        QCOMPARE(shown.count(QChar(0x2026)), 1);
        QCOMPARE(shown_text(name.toStdString()), shown);
        // Emoji are surrogate pairs, some with a skin tone after them: never split, never
        // parted from their modifier, wherever the cut falls.
        const QString thumb = QString::fromUtf8("\U0001F44D\U0001F3FD");
        for (int pad = 0; pad < 4; ++pad) {
            QString emoji = QString(pad, QLatin1Char('a'));
            for (int i = 0; i < 40; ++i)
                emoji += thumb;
            const QString cut = shown_text(emoji, 21);
            QVERIFY(cut.size() <= 21);
            const QString kept = cut.mid(pad).remove(QChar(0x2026));
            QCOMPARE(kept.size() % thumb.size(), 0);
            QCOMPARE(kept, QString(thumb).repeated(kept.size() / thumb.size()));
            QCOMPARE(shown_text(emoji.toStdString(), 21), cut);
        }
        // The tooltip: escaped, a paragraph (Qt wraps those), elided past kTooltipChars with
        // the length said.
        QCOMPARE(tooltip_text(QStringLiteral("<b>x</b>")),
                 QStringLiteral("<p>&lt;b&gt;x&lt;/b&gt;</p>"));
        const QString tip = tooltip_text(name);
        QVERIFY(tip.size() < kTooltipChars + 100);
        QVERIFY2(tip.contains(QString::number(name.size())), qPrintable(tip.right(60)));
        QVERIFY(elided_tooltip(QStringLiteral("v6.0")).isEmpty());
        QCOMPARE(elided_tooltip(name), tip);
    }

    // The run browser and every table show a long name bounded and whole on hover.
    void longNamesInTreesAndTables() {
        store::RunRecord run = list_.runs.front();
        run.variant = std::string(100'000, 'v');
        RunTreeModel tree;
        tree.setRuns({run});
        const QModelIndex variant = tree.indexOfRun(run.id).parent();
        QVERIFY(variant.data().toString().size() <= kNameChars);
        QVERIFY(variant.data(Qt::ToolTipRole).toString().contains(QString(100, QLatin1Char('v'))));
        QVERIFY(tree.index(0, 0).data(Qt::ToolTipRole).toString().isEmpty()); // shown whole

        struct Row {
            QString name;
        };
        TableModel table;
        table.setRows(
            std::vector<Row>{{QString(100'000, QLatin1Char('n'))}, {QStringLiteral("short")}},
            std::vector<Column<Row>>{
                {QStringLiteral("Name"), [](const Row& r) { return r.name; }}});
        QVERIFY(table.index(0, 0).data().toString().size() <= kNameChars);
        QVERIFY(table.index(0, 0)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QString(100, QLatin1Char('n'))));
        QCOMPARE(table.index(0, 0).data(SortRole).toString().size(), 100'000); // sorts on the whole
        QCOMPARE(table.index(1, 0).data().toString(), QStringLiteral("short"));
        QVERIFY(!table.index(1, 0).data(Qt::ToolTipRole).isValid());
    }

    void c2cTables() {
        const RunDetail d = read_run_detail(db_, v60_);
        QVERIFY(d.c2c);
        const auto lines = analysis::cacheline_rows(*d.c2c);
        QVERIFY(!lines.empty());
        // v6.0 puts usage next to high on a page_counter's first line, and that line is among
        // the contended ones. (It is not always the hottest: v6.0's unconditional xchg of
        // low_usage makes the second line, with parent, about as hot.)
        const auto usage_line = std::find_if(lines.begin(), lines.end(), [](const auto& l) {
            return l.fields.find("memory.usage") != std::string::npos &&
                   l.fields.find("memory.high") != std::string::npos;
        });
        QVERIFY(usage_line != lines.end());
        const c2c::LineKey top = usage_line->key;
        const Basis basis = analysis::rate_basis(*d.c2c);
        check_table(lines, line_columns(basis));
        check_table(offset_rows(*d.c2c, top), offset_columns(basis));
        check_table(pair_rows(*d.c2c, top), pair_columns(basis));
        check_table(cpu_rows(*d.c2c, top), cpu_columns(basis));
        QVERIFY(!offset_rows(*d.c2c, top).empty());
        QVERIFY(!pair_rows(*d.c2c, top).empty());
    }

    // The cacheline table's headers, values and heat bars are the analysis schema's
    // (analysis::run_line_columns), as the text report's and the exports' are.
    void lineColumnsAreTheSchemas() {
        const analysis::RateBasis share{analysis::RateBasis::Kind::share_of_hitm, 20};
        for (const Basis& basis : {Basis{}, Basis{share}}) {
            const auto schema = analysis::run_line_columns(basis, analysis::LineTable::browse);
            const auto columns = line_columns(basis);
            QCOMPARE(columns.size(), schema.size());
            for (std::size_t i = 0; i < schema.size(); ++i) {
                QCOMPARE(columns[i].title, QString::fromStdString(schema[i].header));
                QCOMPARE(columns[i].heat, schema[i].heat);
            }
        }
    }

    // A perf c2c import has no store classes, cycles or traced operations: its cells read "–",
    // never 0, while perf's Tot Hitm (load HITMs) is a number; a replay's zeros stay zeros.
    void unknownCountsShowAsDashes() {
        store::C2cData data;
        c2c::ClassCounts counts;
        counts.load_hitm = 5;
        counts.clean_forward = 1;
        counts.loads = 6;
        data.result.lines.push_back({{0, 0, 0x1000}, counts});
        data.result.cpus.push_back({{0, 0, 0x1000}, 3, counts});
        const auto cell = [](const auto& rows, const auto& columns, const char* title) {
            TableModel model;
            model.setRows(rows, columns);
            for (int c = 0; c < model.columnCount(); ++c)
                if (model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString() ==
                    QLatin1String(title))
                    return model.index(0, c).data().toString();
            return QStringLiteral("(no column %1)").arg(QLatin1String(title));
        };

        QCOMPARE(cell(analysis::cacheline_rows(data), line_columns(std::nullopt), "StoreHitm"),
                 QStringLiteral("0"));
        QCOMPARE(cell(analysis::cacheline_rows(data), line_columns(std::nullopt), "Xfer"),
                 QStringLiteral("6"));

        // Without a capture total either, the rates are unknown.
        data.trace.known = store::KnownCounts::none();
        const auto lines = analysis::cacheline_rows(data);
        QCOMPARE(lines.size(), std::size_t(1));
        const auto columns = line_columns(analysis::rate_basis(data));
        check_table(lines, columns);
        for (const char* title :
             {"StoreHitm", "Inval", "Xfer", "Xfer/1k op", "Est. cycles", "Tot Hitm/1k op"})
            QCOMPARE(cell(lines, columns, title), unknown_qtext());
        QCOMPARE(cell(lines, columns, "Tot Hitm"), QStringLiteral("5"));
        QCOMPARE(cell(lines, columns, "LoadHitm"), QStringLiteral("5"));
        const auto cpus = cpu_rows(data, {0, 0, 0x1000});
        check_table(cpus, cpu_columns(std::nullopt));
        QCOMPARE(cell(cpus, cpu_columns(std::nullopt), "Xfer"), unknown_qtext());
        QCOMPARE(cell(cpus, cpu_columns(std::nullopt), "Hitm"), QStringLiteral("5"));

        // A capture of 20 HITMs: the line's 5 are 25 % of them, perf c2c's own percentage; no
        // per-1k column is left to read "–".
        data.trace.capture_hitm = 20;
        const auto share = analysis::rate_basis(data);
        QVERIFY(share && share->kind == analysis::RateBasis::Kind::share_of_hitm);
        const auto captured = analysis::cacheline_rows(data);
        QCOMPARE(cell(captured, line_columns(share), "Tot Hitm %HITM"), QStringLiteral("25.0%"));
        QCOMPARE(cell(captured, line_columns(share), "Tot Hitm/1k op"),
                 QStringLiteral("(no column Tot Hitm/1k op)"));
        QCOMPARE(cell(captured, line_columns(share), "Xfer %HITM"), unknown_qtext());
    }

    // The strip of a struct mem_cgroup line: in v6.0 memory (at +0xd0) shares its first line
    // (line 3 of the struct) with css.parent and id.
    void stripV60() {
        const RunDetail d = read_run_detail(db_, v60_);
        const engine::ObjectInfo* o = analysis::object_named(*d.c2c, "top");
        QVERIFY(o);
        QCOMPARE(QString::fromStdString(o->layout.version), QStringLiteral("v6.0"));
        const auto strip = compute_strip(*d.c2c, {o->id, 3, 0}, 640.0);
        QVERIFY(strip);
        QCOMPARE(strip->bytes, 64u);
        QCOMPARE(strip->boxes.size(), std::size_t(8)); // css.parent, id, usage .. emin
        QCOMPARE(strip->boxes.front().name, QStringLiteral("css.parent"));
        const StripBox* usage = box_named(*strip, QStringLiteral("memory.usage"));
        const StripBox* high = box_named(*strip, QStringLiteral("memory.high"));
        QVERIFY(usage && high);
        QCOMPARE(usage->offset, 16u);
        QCOMPARE(usage->size, 8u);
        QCOMPARE(usage->x, 160.0);
        QCOMPARE(usage->width, 80.0);
        QCOMPARE(high->offset, 40u);
        QCOMPARE(high->x, 400.0);
        QVERIFY(usage->counts->transfers() > 0);
        // Coloured and numbered by HITM per 1,000 traced operations, the chart's metric.
        QCOMPARE(strip_metric(*strip), QStringLiteral("HITM per 1,000 traced operations"));
        QVERIFY(strip->basis && !analysis::is_share(strip->basis) && strip->basis->denominator > 0);
        QCOMPARE(strip_value(*strip, *usage->counts),
                 1000.0 * static_cast<double>(usage->counts->hitm()) /
                     static_cast<double>(strip->basis->denominator));
        double most = 0;
        for (const StripBox& b : strip->boxes)
            most = std::max(most, strip_value(*strip, *b.counts));
        QCOMPARE(strip->max_value, most);
        // Labels: struct mem_cgroup has four page_counters, so memory.usage keeps its counter
        // ("usage" alone would also be swap's, kmem's and tcpmem's), as do css.parent and
        // memory.parent; the memcg id is the only "id".
        QCOMPARE(usage->label, QStringLiteral("memory.usage"));
        QCOMPARE(high->label, QStringLiteral("memory.high"));
        QCOMPARE(strip->boxes.front().label, QStringLiteral("css.parent"));
        QCOMPARE(box_named(*strip, QStringLiteral("id"))->label, QStringLiteral("id"));
        // The next line starts with memory.min_usage at byte 256 of the struct.
        const auto second = compute_strip(*d.c2c, {o->id, 4, 0}, 640.0);
        QVERIFY(second && !second->boxes.empty());
        QCOMPARE(second->boxes.front().name, QStringLiteral("memory.min_usage"));
        QCOMPARE(second->boxes.front().offset, 0u);
        QCOMPARE(object_lines(*d.c2c, o->id).size(), std::size_t(o->layout.size / 64));
    }

    void stripV61() {
        const RunDetail d = read_run_detail(db_, v61_);
        const engine::ObjectInfo* o = analysis::object_named(*d.c2c, "top");
        QVERIFY(o);
        // memory.usage sits alone on line 4 (the padded counter starts at 256); memory.high is
        // on the counter's third line, at byte 16 of it.
        const auto first = compute_strip(*d.c2c, {o->id, 4, 0}, 640.0);
        QVERIFY(first);
        QCOMPARE(first->boxes.size(), std::size_t(1));
        QCOMPARE(first->boxes.front().name, QStringLiteral("memory.usage"));
        const auto third = compute_strip(*d.c2c, {o->id, 6, 0}, 640.0);
        QVERIFY(third);
        const StripBox* high = box_named(*third, QStringLiteral("memory.high"));
        QVERIFY(high);
        QCOMPARE(high->offset, 16u);
        QCOMPARE(high->x, 160.0);
        QVERIFY(!box_named(*third, QStringLiteral("memory.usage")));
        // The 128-byte view of line 4 covers lines 4 and 5: usage .. failcnt.
        const auto pair = compute_strip(*d.c2c, {o->id, 4, 0}, 1280.0, 128);
        QVERIFY(pair);
        QCOMPARE(pair->bytes, 128u);
        QCOMPARE(pair->boxes.size(), std::size_t(9));
        QCOMPARE(box_named(*pair, QStringLiteral("memory.emin"))->x, 640.0);
    }

    void scaling() {
        const auto series = analysis::scaling_series(list_.runs, "page-counter-charge");
        QCOMPARE(series.size(), std::size_t(2)); // the prediction has no throughput
        QCOMPARE(series[0].variant, std::string("v6.0"));
        QCOMPARE(series[0].points.size(), std::size_t(1));
        QCOMPARE(series[0].points[0].threads, 2);
        QVERIFY(series[0].points[0].median > 0);
        QVERIFY(analysis::scaling_series(list_.runs, "no-such-workload").empty());
    }

    void compareWithPrediction() {
        const CompareData c = read_compare(db_, v60_, v61_);
        QCOMPARE(c.before.run.id, v60_);
        QVERIFY(c.prediction_run);
        QVERIFY(c.prediction);
        QVERIFY(c.prediction->usage_line_measured);
        QVERIFY(!c.prediction->rows.empty());
        // Reversed, there is no prediction of v6.0 from v6.1.
        QVERIFY(!read_compare(db_, v61_, v60_).prediction);
    }

    void loaderLatestRequestWins() {
        DbLoader loader;
        std::vector<qint64> shown;
        int lists = 0;
        connect(&loader, &DbLoader::runsLoaded, this, [&](const RunList&) { ++lists; });
        connect(&loader, &DbLoader::runLoaded, this,
                [&](std::shared_ptr<const RunDetail> d) { shown.push_back(d->run.id); });
        loader.openDatabase(db_);
        QTRY_VERIFY_WITH_TIMEOUT(!loader.busy(), test::kWaitMs);
        QCOMPARE(lists, 1);
        loader.loadRun(v60_);
        loader.loadRun(v61_);
        QTRY_VERIFY_WITH_TIMEOUT(!loader.busy(), test::kWaitMs);
        QCOMPARE(shown, std::vector<qint64>{v61_});
    }

    void lockRows() {
        const std::vector<store::LockData> tables{lock_table(100)};
        const auto rows = lock_rows(tables);
        QCOMPARE(rows.size(), std::size_t(3));                    // rq W and R, counter
        QCOMPARE(rows[0].name, QStringLiteral("&counter->lock")); // most contentions first
        QCOMPARE(rows[1].side, QStringLiteral("W"));
        QCOMPARE(rows[2].side, QStringLiteral("R"));
        QCOMPARE(*rows[1].wait_total_us, 50.0);
        QVERIFY2(!rows[0].wait_total_us, "absent stays absent");
        TableModel model;
        model.setRows(rows, lock_columns());
        QCOMPARE(model.index(0, 9).data().toString(), QStringLiteral("–"));
        QCOMPARE(model.index(1, 9).data().toString(), QStringLiteral("50.00"));
        check_table(rows, lock_columns());
        const auto points = lock_point_rows(tables[0].report.classes[0]);
        QCOMPARE(points.size(), std::size_t(1));
        QCOMPARE(points[0].site, QStringLiteral("task_rq_lock+0x43/0x75"));
        check_table(points, lock_point_columns());
    }

    void lockCompare() {
        const auto rows = analysis::lock_changes({lock_table(100)}, {lock_table(10)});
        TableModel model;
        model.setRows(rows, lock_compare_columns());
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("&counter->lock"));
        QCOMPARE(model.index(1, 3).data().toString(), QStringLiteral("-85.7%"));
        QCOMPARE(model.index(0, 4).data().toString(), QStringLiteral("–"));
        check_table(rows, lock_compare_columns());
    }

    void loaderRefusesForeignFiles() {
        const QString text = dir_.filePath(QStringLiteral("notes.txt"));
        QFile f(text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a database\n");
        f.close();
        DbLoader loader;
        QString reason;
        connect(&loader, &DbLoader::openFailed, this,
                [&](const QString&, const QString& r) { reason = r; });
        loader.openDatabase(text);
        QTRY_VERIFY_WITH_TIMEOUT(!loader.busy(), test::kWaitMs);
        QVERIFY(!reason.isEmpty());
        QVERIFY(!reason.contains(QLatin1Char('\n')));
        const RunList missing = read_run_list(dir_.filePath(QStringLiteral("absent.db")));
        QVERIFY(!missing.exists);
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("absent.db"))));
    }
};

QTEST_MAIN(TestGuiModels)
#include "tst_gui_models.moc"
