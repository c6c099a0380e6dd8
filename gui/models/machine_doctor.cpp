#include "gui/models/machine_doctor.hpp"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace hitmap::gui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("MachineDoctor", text);
}

} // namespace

DoctorReport parse_doctor_json(const QByteArray& json) {
    DoctorReport report;
    QJsonParseError parse_error{};
    const QJsonDocument document = QJsonDocument::fromJson(json, &parse_error);
    if (document.isNull()) {
        report.error = tr("not JSON: %1").arg(parse_error.errorString());
        return report;
    }
    const QJsonObject root = document.object();
    if (root.value(QStringLiteral("schema_version")).toInt() != 1 ||
        !root.value(QStringLiteral("capabilities")).isArray()) {
        report.error = tr("not a doctor report of schema version 1");
        return report;
    }
    for (const QJsonValue& value : root.value(QStringLiteral("capabilities")).toArray()) {
        const QJsonObject item = value.toObject();
        const QJsonValue available = item.value(QStringLiteral("available"));
        const QString key = item.value(QStringLiteral("key")).toString();
        if (key.isEmpty() || !available.isBool()) {
            report.rows.clear();
            report.error = tr("a capability without a key or a yes/no");
            return report;
        }
        report.rows.push_back({key, item.value(QStringLiteral("label")).toString(key),
                               available.toBool(),
                               item.value(QStringLiteral("detail")).toString()});
    }
    return report;
}

std::vector<Column<CapabilityRow>> capability_columns() {
    return {
        {tr("Capability"), [](const CapabilityRow& r) { return QVariant(r.label); }},
        {tr("Available"), [](const CapabilityRow& r) { return QVariant(r.available); },
         [](const CapabilityRow& r) { return r.available ? tr("yes") : tr("no"); }},
        {tr("Detail"),
         [](const CapabilityRow& r) { return QVariant(r.detail); },
         {},
         [](const CapabilityRow& r) { return r.detail; }},
    };
}

} // namespace hitmap::gui
