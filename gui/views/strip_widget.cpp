#include "gui/views/strip_widget.hpp"

#include "collector/analysis/rate.hpp"
#include "gui/models/number_text.hpp"
#include "gui/models/shown_text.hpp"
#include "gui/models/unknown_text.hpp"
#include "gui/views/heat_bar_delegate.hpp"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace hitmap::gui {

namespace {
constexpr int kTitleHeight = 20;
constexpr int kRulerHeight = 16;
const QColor kUncounted(228, 228, 232); // apart from heat_color(0), a counted zero
const QColor kMoved(25, 118, 210);
} // namespace

StripWidget::StripWidget(QWidget* parent)
    : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setFixedHeight(96);
}

void StripWidget::setStrip(std::optional<StripLayout> strip) {
    strip_ = std::move(strip);
    update();
}

void StripWidget::setScaleMax(double value) {
    scale_max_ = value;
    update();
}

QRectF StripWidget::stripRect() const {
    return QRectF(8, kTitleHeight, width() - 16, height() - kTitleHeight - kRulerHeight - 4);
}

QRectF StripWidget::boxRect(const StripBox& box) const {
    const QRectF r = stripRect();
    return QRectF(r.left() + box.x * r.width(), r.top(), box.width * r.width(), r.height());
}

void StripWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().window());
    if (!strip_) {
        p.drawText(rect(), Qt::AlignCenter, tr("Select a cacheline"));
        return;
    }
    const QRectF r = stripRect();
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    const QRectF title(8, 0, width() - 16, kTitleHeight);
    const QString head = shown_text(strip_->title) + tr("  (%1 bytes)").arg(strip_->bytes);
    p.drawText(title, Qt::AlignLeft | Qt::AlignVCenter, head);
    p.setFont(font());
    // What the boxes count, after the title: every strip names its metric and whose it is.
    if (strip_->counted) {
        const QRectF rest =
            title.adjusted(QFontMetrics(bold).horizontalAdvance(head) + 12, 0, 0, 0);
        p.drawText(rest, Qt::AlignLeft | Qt::AlignVCenter,
                   fontMetrics().elidedText(tr("%1, %2").arg(strip_metric(*strip_), strip_->scope),
                                            Qt::ElideRight, static_cast<int>(rest.width())));
    }

    // Box text a little smaller than the title: "memory." fits an 8-byte box of a 64-byte line.
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    const QFontMetrics metrics(small);

    // Unused bytes (padding, or another object) are hatched so gaps read as gaps.
    p.fillRect(r, QBrush(QColor(225, 225, 225), Qt::BDiagPattern));
    const double scale = scale_max_ > 0 ? scale_max_ : strip_->max_value;
    for (const StripBox& box : strip_->boxes) {
        const QRectF b = boxRect(box).adjusted(0.5, 0.5, -0.5, -0.5);
        const double value = box.counts ? strip_value(*strip_, *box.counts) : 0.0;
        const double t = scale > 0 ? std::min(1.0, value / scale) : 0.0;
        p.fillRect(b, box.counts ? heat_color(t) : kUncounted);
        p.setPen(QColor(90, 90, 90));
        p.drawRect(b);
        if (box.moved) {
            p.setPen(QPen(kMoved, 3));
            p.drawRect(b.adjusted(1.5, 1.5, -1.5, -1.5));
        }
        p.setPen(t > 0.75 ? Qt::white : Qt::black);
        // The shortest unambiguous name ("memory.usage" beside "swap.usage", else "usage");
        // too wide for its box, a line per part of the path ("memory." over "usage"), each
        // elided if it must be; the tooltip has the whole path.
        const int room = static_cast<int>(b.width()) - 4;
        QStringList lines{shown_text(box.label)};
        if (metrics.horizontalAdvance(lines.front()) > room) {
            lines = lines.front().split(QLatin1Char('.'));
            for (qsizetype i = 0; i + 1 < lines.size(); ++i)
                lines[i] += QLatin1Char('.');
        }
        for (QString& line : lines)
            line = metrics.elidedText(line, Qt::ElideRight, room);
        // Its HITM in the strip's metric (strip_metric) when it has any; "–" when the run did
        // not count it.
        if (value > 0)
            lines << metrics.elidedText(strip_value_text(*strip_, *box.counts), Qt::ElideRight,
                                        room);
        else if (!box.counts && strip_->counted)
            lines << unknown_qtext();
        // As many lines as the box holds, the name's first.
        const int fit = std::max(1, static_cast<int>((b.height() - 4) / metrics.height()));
        p.drawText(b.adjusted(2, 2, -2, -2), Qt::AlignCenter,
                   lines.mid(0, fit).join(QLatin1Char('\n')));
    }
    p.setFont(font());
    // Ruler: a tick every 8 bytes, a line boundary marked heavier.
    p.setPen(palette().text().color());
    for (std::uint32_t byte = 0; byte <= strip_->bytes; byte += 8) {
        const double x = r.left() + r.width() * byte / strip_->bytes;
        const bool boundary = byte % strip_->line_size == 0;
        p.setPen(QPen(palette().text().color(), boundary ? 2 : 1));
        p.drawLine(QPointF(x, r.bottom()), QPointF(x, r.bottom() + (boundary ? 6 : 3)));
        if (byte % 16 == 0)
            p.drawText(QRectF(x - 20, r.bottom() + 3, 40, kRulerHeight), Qt::AlignCenter,
                       QString::number(byte));
    }
}

QString StripWidget::tooltip(const StripBox& box) const {
    // One arg() for all three: a "%2" in the name stays text.
    const QString where = tr("<b>%1</b> at byte %2, %3 bytes")
                              .arg(shown_text(box.name, kTooltipChars).toHtmlEscaped(),
                                   QString::number(box.offset), QString::number(box.size));
    if (!box.counts)
        return strip_->counted ? where + tr("<br>not counted by this run: %1").arg(unknown_qtext())
                               : where;
    const store::ShownCounts c = store::shown_counts(*box.counts, strip_->known);
    const auto count = [](std::optional<std::uint64_t> v) {
        return text_or_unknown(v, [](std::uint64_t x) { return number_text(x); });
    };
    const auto rate = [this](std::optional<std::uint64_t> v) {
        return QString::fromStdString(analysis::rate_phrase(v, strip_->basis));
    };
    return where + tr("<br>loads %1, stores %2<br>HITM %3 (%4): load %5, store %6<br>"
                      "transfers %7 (%8)")
                       .arg(c.loads)
                       .arg(c.stores)
                       .arg(c.hitm)
                       .arg(rate(c.hitm))
                       .arg(c.load_hitm)
                       .arg(count(c.store_hitm))
                       .arg(count(c.transfers))
                       .arg(rate(c.transfers));
}

bool StripWidget::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip && strip_) {
        auto* help = static_cast<QHelpEvent*>(event);
        for (const StripBox& box : strip_->boxes)
            if (boxRect(box).contains(help->pos())) {
                QToolTip::showText(help->globalPos(), tooltip(box), this);
                return true;
            }
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    return QWidget::event(event);
}

} // namespace hitmap::gui
