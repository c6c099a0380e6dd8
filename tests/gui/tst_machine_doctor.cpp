// Help → Machine capabilities: a canned `doctor --json` into the model (rows, yes/no, errors),
// and the dialog asking the real collector on this machine. HITMAP_DOCTOR_GRAB=FILE.png saves
// the dialog as shown, to look at it.
#include "fixture.hpp"
#include "gui/models/machine_doctor.hpp"
#include "gui/views/doctor_dialog.hpp"

#include <QLabel>
#include <QtTest>

using namespace hitmap;
using namespace hitmap::gui;

namespace {

// Shaped like the collector's output on a VM without a PMU (schemas/doctor.schema.json).
const QByteArray canned = R"json({
  "schema_version": 1,
  "capabilities": [
    {"key": "hardware_pmu", "label": "hardware PMU", "available": false,
     "detail": "cycles counter refused: no such event on this PMU (ENOENT)"},
    {"key": "tracepoints", "label": "lock tracepoints", "available": true,
     "detail": "lock:contention_begin/end in /sys/kernel/tracing"},
    {"key": "cache_line_size", "label": "cache line size", "available": true,
     "detail": "64 bytes"}
  ],
  "facts": {"cache_line_size": 64}
})json";

} // namespace

class TestMachineDoctor : public QObject {
    Q_OBJECT

private slots:
    void cannedReportIntoTheModel() {
        const DoctorReport report = parse_doctor_json(canned);
        QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
        QCOMPARE(report.rows.size(), std::size_t{3});
        QCOMPARE(report.rows[0].key, QStringLiteral("hardware_pmu"));
        QCOMPARE(report.rows[0].available, false);
        QCOMPARE(report.rows[1].label, QStringLiteral("lock tracepoints"));

        TableModel model;
        model.setRows(report.rows, capability_columns());
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), 3);
        QCOMPARE(model.headerData(0, Qt::Horizontal, Qt::DisplayRole).toString(),
                 QStringLiteral("Capability"));
        QCOMPARE(model.data(model.index(0, 1), Qt::DisplayRole).toString(), QStringLiteral("no"));
        QCOMPARE(model.data(model.index(1, 1), Qt::DisplayRole).toString(), QStringLiteral("yes"));
        QCOMPARE(model.data(model.index(2, 2), Qt::DisplayRole).toString(),
                 QStringLiteral("64 bytes"));
        QCOMPARE(model.data(model.index(0, 2), Qt::ToolTipRole).toString(), report.rows[0].detail);
    }

    void notADoctorReportIsAnError() {
        QVERIFY(!parse_doctor_json("hitmap-collect: error: x").error.isEmpty());
        QVERIFY(!parse_doctor_json(R"({"schema_version": 2, "capabilities": []})").error.isEmpty());
        const DoctorReport unknown_yes_no = parse_doctor_json(
            R"({"schema_version": 1, "capabilities": [{"key": "cpus", "available": null}]})");
        QVERIFY(!unknown_yes_no.error.isEmpty());
        QVERIFY(unknown_yes_no.rows.empty());
    }

    void dialogAsksTheCollector() {
        // The scripted collector answers with this VM's report (tests/data/collector).
        DoctorDialog dialog(QStringLiteral(HITMAP_SCRIPTED_COLLECTOR));
        QSignalSpy shown(&dialog, &DoctorDialog::reportShown);
        dialog.show();
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, test::kWaitMs);
        QVERIFY2(shown.at(0).at(0).toBool(), qPrintable(dialog.status()->text()));
        QCOMPARE(dialog.model()->rowCount(), 10);
        bool tracepoints = false;
        for (int row = 0; row < dialog.model()->rowCount(); ++row)
            tracepoints = tracepoints ||
                          dialog.model()->data(dialog.model()->index(row, 0), Qt::DisplayRole) ==
                              QStringLiteral("lock tracepoints");
        QVERIFY(tracepoints);
        if (const QString grab = qEnvironmentVariable("HITMAP_DOCTOR_GRAB"); !grab.isEmpty())
            QVERIFY(dialog.grab().save(grab));
    }

    void aMissingCollectorIsSaid() {
        DoctorDialog dialog(QStringLiteral("/nonexistent/hitmap-collect"));
        QSignalSpy shown(&dialog, &DoctorDialog::reportShown);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, test::kWaitMs);
        QCOMPARE(shown.at(0).at(0).toBool(), false);
        QVERIFY(dialog.status()->text().startsWith(QStringLiteral("Cannot start")));
    }
};

QTEST_MAIN(TestMachineDoctor)
#include "tst_machine_doctor.moc"
