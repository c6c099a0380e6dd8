#include "gui/models/workload_list.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace hitmap::gui {

std::optional<CollectorList> parse_collector_list(const QByteArray& json) {
    const QJsonDocument doc = QJsonDocument::fromJson(json);
    if (!doc.isObject() || !doc.object().value(QStringLiteral("workloads")).isArray())
        return std::nullopt;
    CollectorList list;
    for (const QJsonValue& w : doc.object().value(QStringLiteral("workloads")).toArray()) {
        const QJsonObject o = w.toObject();
        WorkloadChoice choice{o.value(QStringLiteral("name")).toString(),
                              o.value(QStringLiteral("description")).toString(),
                              {},
                              {}};
        if (choice.name.isEmpty())
            continue;
        for (const QJsonValue& v : o.value(QStringLiteral("variants")).toArray())
            choice.variants << v.toObject().value(QStringLiteral("name")).toString();
        for (const QJsonValue& p : o.value(QStringLiteral("params")).toArray()) {
            const QJsonObject param = p.toObject();
            const QJsonValue value = param.value(QStringLiteral("default"));
            // A number or a flag as JSON writes it ("64", "true"), without the array around it.
            const QString text =
                value.isString()
                    ? value.toString()
                    : QString::fromUtf8(
                          QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact))
                          .mid(1)
                          .chopped(1);
            choice.params << QStringLiteral("%1=%2").arg(
                param.value(QStringLiteral("name")).toString(), text);
        }
        list.workloads.push_back(std::move(choice));
    }
    for (const QJsonValue& m : doc.object().value(QStringLiteral("machines")).toArray())
        list.machines << m.toObject().value(QStringLiteral("name")).toString();
    return list;
}

} // namespace hitmap::gui
