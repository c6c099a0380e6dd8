// Opening a large database in the desktop app: 1,000 runs holding 100,000 cacheline rows
// (plus their field and CPU rows). Measures, on a fresh MainWindow each time, the wall time from
// openDatabase() until the run browser is filled (runsShown) and until the first run's
// cacheline table is shown (runShown), then from showing the Layout tab until its catalog is
// read (layoutsLoaded). Usage: gui_load_bench [DB] [repetitions] (the DB is generated when it
// does not exist).
#include "collector/store/c2c_tables.hpp"
#include "collector/store/database.hpp"
#include "collector/store/run_writer.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "gui/app/main_window.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>

namespace {

using namespace hitmap;

constexpr int kRuns = 1000;
constexpr int kObjectsPerRun = 50; // page_counters of 2 lines each: 100 cacheline rows per run

store::C2cData synthetic_c2c(int seed) {
    const engine::Layout& layout = *engine::find_builtin_layout("page_counter", "v6.0");
    store::C2cData d;
    d.trace.threads = 2;
    d.trace.records = 1'000'000;
    d.trace.traced_ops = 100'000;
    for (int o = 0; o < kObjectsPerRun; ++o) {
        d.objects.push_back(
            {static_cast<engine::ObjectId>(o), fmt::format("cg{}/memory", o), layout, 0});
        for (std::uint32_t line = 0; line < 2; ++line) {
            const c2c::LineKey key{static_cast<engine::ObjectId>(o), line,
                                   0x100000u + 0x1000u * o + 64u * line};
            c2c::ClassCounts c;
            c.load_hitm = static_cast<std::uint64_t>((seed * 7 + o * 13 + line) % 997);
            c.store_hitm = c.load_hitm / 2;
            c.loads = 10'000;
            c.stores = 2'000;
            c.l1_hit = 11'000;
            d.result.lines.push_back({key, c});
            d.result.fields.push_back({key, 0, 8, line == 0 ? engine::pc::usage : engine::pc::elow,
                                       line == 0 ? "usage" : "elow", c});
            d.result.fields.push_back({key, 24, 8,
                                       line == 0 ? engine::pc::high : engine::pc::watermark,
                                       line == 0 ? "high" : "watermark", c});
            d.result.cpus.push_back({key, 0, c});
            d.result.cpus.push_back({key, 1, c});
            d.result.totals += c;
        }
    }
    return d;
}

void generate(const std::filesystem::path& path) {
    auto db = store::Database::open(path);
    const auto machine = db.upsert_machine(store::detect_machine(), "{}");
    db.transaction([&] { // one transaction: generating is not what we measure
        for (int i = 0; i < kRuns; ++i) {
            store::RunRecord r;
            r.machine_id = machine;
            r.workload = "page-counter-charge";
            r.variant = i % 2 ? "v6.1" : "v6.0";
            r.source = store::Source::traced;
            r.threads = 1 + i % 2;
            r.duration_s = 1;
            r.c2c_source = store::C2cSource::software;
            const store::RunOutcome outcome{.ops = 1'000'000, .ops_per_s = 1'000'000};
            const store::C2cData c2c = synthetic_c2c(i);
            db.insert_finished_run(r, outcome,
                                   [&](store::RunWriter& writer) { writer.write(c2c); });
        }
    });
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", QByteArray("offscreen"));
    QApplication app(argc, argv);
    const std::filesystem::path db = argc > 1 ? argv[1] : "gui_load_bench.db";
    const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
    if (!std::filesystem::exists(db)) {
        std::printf("generating %s: %d runs, %d cacheline rows ...\n", db.c_str(), kRuns,
                    kRuns * kObjectsPerRun * 2);
        generate(db);
    }
    std::vector<double> runs_ms, table_ms, layouts_ms;
    for (int rep = 0; rep < reps; ++rep) {
        gui::MainWindow window;
        window.resize(1400, 900);
        window.show();
        QEventLoop loop;
        QElapsedTimer timer;
        QElapsedTimer layouts_timer;
        double runs_at = -1, table_at = -1, layouts_at = -1;
        QObject::connect(&window, &gui::MainWindow::runsShown,
                         [&] { runs_at = timer.nsecsElapsed() / 1e6; });
        // Then the Layout tab, which reads its catalog (every run's heat per struct) when shown.
        QObject::connect(&window, &gui::MainWindow::runShown, [&](qint64) {
            table_at = timer.nsecsElapsed() / 1e6;
            layouts_timer.start();
            window.showTab(gui::MainWindow::LayoutTab);
        });
        QObject::connect(window.loader(), &gui::DbLoader::layoutsLoaded, [&] {
            layouts_at = layouts_timer.nsecsElapsed() / 1e6;
            loop.quit();
        });
        QTimer::singleShot(30'000, &loop, &QEventLoop::quit);
        timer.start();
        window.openDatabase(QString::fromStdString(db.string()));
        loop.exec();
        if (runs_at < 0 || table_at < 0 || layouts_at < 0) {
            std::fprintf(stderr, "gui_load_bench: the window did not show the runs within 30 s\n");
            return 1;
        }
        runs_ms.push_back(runs_at);
        table_ms.push_back(table_at);
        layouts_ms.push_back(layouts_at);
    }
    std::printf("open %s, median of %d: run browser shown after %.0f ms, first run's cacheline "
                "table after %.0f ms (goal <= 500 ms); Layout tab's catalog %.0f ms after the "
                "tab is shown\n",
                db.filename().c_str(), reps, median(runs_ms), median(table_ms), median(layouts_ms));
    return 0;
}
