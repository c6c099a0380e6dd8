#include "gui/models/run_quality.hpp"

#include "gui/models/shown_text.hpp"
#include "gui/models/unknown_text.hpp"

#include <QStringList>

namespace hitmap::gui {

namespace {

QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString source_sentence(const store::RunRecord& run) {
    switch (run.source) {
    case store::Source::traced:
        return QObject::tr("ops/s traced: measured while probes recorded, slower than untraced");
    case store::Source::measured:
        return QObject::tr("ops/s measured untraced on this machine");
    case store::Source::predicted:
        return QObject::tr("predicted: a replay of run %1's trace, no throughput of its own")
            .arg(run.predicted_from.value_or(0));
    case store::Source::imported:
        return QObject::tr("imported text: no throughput, threads or duration unless it said so");
    default:
        return qs(store::to_string(run.source));
    }
}

} // namespace

QString run_tooltip(const store::RunRecord& run) {
    // The names whole, where labels show them elided.
    QStringList lines{
        QStringLiteral("%1 %2")
            .arg(shown_text(run.workload, kTooltipChars), shown_text(run.variant, kTooltipChars))
            .toHtmlEscaped(),
        source_sentence(run).toHtmlEscaped()};
    if (run.c2c_reason)
        lines << QObject::tr("cachelines: %1")
                     .arg(shown_text(*run.c2c_reason, kTooltipChars).toHtmlEscaped());
    if (run.note)
        lines << shown_text(*run.note, kTooltipChars).toHtmlEscaped();
    // Rich text, so that a long note wraps.
    return QStringLiteral("<p>%1</p>").arg(lines.join(QStringLiteral("<br>")));
}

QString run_header(const store::RunRecord& run, const std::optional<store::C2cData>& c2c) {
    QString head =
        QObject::tr("<b>Run %1</b>: %2 %3, %4 threads, %5 s — %6")
            .arg(run.id)
            .arg(shown_text(run.workload).toHtmlEscaped(), shown_text(run.variant).toHtmlEscaped())
            .arg(text_or_unknown(run.threads, [](int t) { return QString::number(t); }))
            .arg(text_or_unknown(run.duration_s,
                                 [](double s) { return QString::number(s, 'g', 3); }))
            .arg(source_sentence(run).toHtmlEscaped());
    if (c2c) {
        const auto count = [](std::optional<std::uint64_t> n) {
            return text_or_unknown(n, [](std::uint64_t v) { return QString::number(v); });
        };
        head +=
            QObject::tr("<br>cachelines %1: %2 traced of %3 operations, %4 records dropped, "
                        "%5 CPU migrations, timestamps per %6")
                .arg(run.c2c_source == store::C2cSource::predicted ? QObject::tr("predicted")
                                                                   : QObject::tr("replayed"))
                .arg(count(c2c->traced_ops()))
                .arg(text_or_unknown(run.ops, [](std::int64_t n) { return QString::number(n); }))
                .arg(count(c2c->dropped_records()))
                .arg(count(c2c->cpu_migrations()))
                .arg(shown_text(c2c->trace.clock).toHtmlEscaped());
    } else if (run.c2c_reason) {
        head += QObject::tr("<br>no cacheline data: %1")
                    .arg(shown_text(*run.c2c_reason, kSentenceChars).toHtmlEscaped());
    }
    if (run.note)
        head += QStringLiteral("<br><i>%1</i>")
                    .arg(shown_text(*run.note, kSentenceChars).toHtmlEscaped());
    return head;
}

} // namespace hitmap::gui
