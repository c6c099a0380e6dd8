#include "gui/models/progress_line.hpp"

#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace hitmap::gui {

double ProgressLine::overall() const {
    const double done = event == QLatin1String("end") ? 1.0 : fraction;
    return std::clamp((index + done) / std::max(1, total), 0.0, 1.0);
}

std::optional<ProgressLine> parse_progress_line(const QByteArray& line) {
    const QJsonObject j = QJsonDocument::fromJson(line).object();
    const QString event = j.value(QStringLiteral("event")).toString();
    if (event != QLatin1String("begin") && event != QLatin1String("progress") &&
        event != QLatin1String("end"))
        return std::nullopt;
    ProgressLine p;
    p.event = event;
    p.index = j.value(QStringLiteral("index")).toInt();
    p.total = std::max(1, j.value(QStringLiteral("total")).toInt());
    p.fraction = j.value(QStringLiteral("fraction")).toDouble();
    p.label = j.value(QStringLiteral("label")).toString();
    p.summary = j.value(QStringLiteral("summary")).toString();
    p.ok = j.value(QStringLiteral("ok")).toBool(true);
    return p;
}

} // namespace hitmap::gui
