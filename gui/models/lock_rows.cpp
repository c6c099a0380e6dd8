#include "gui/models/lock_rows.hpp"

#include <algorithm>
#include <map>

namespace hitmap::gui {

namespace {

std::optional<double> count(const std::optional<std::uint64_t>& v) {
    return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
}
std::optional<double> micros(const std::optional<std::int64_t>& ns) {
    return ns ? std::optional<double>(static_cast<double>(*ns) / 1000.0) : std::nullopt;
}

QString source_name(store::LockSource s) {
    return QString::fromUtf8(store::to_string(s).data(),
                             static_cast<qsizetype>(store::to_string(s).size()));
}

void add_side(std::vector<LockRow>& rows, std::size_t table, std::size_t cls,
              const store::LockData& data, const locks::LockClassStats& c,
              const locks::LockCounters& k, const QString& side) {
    LockRow r;
    r.table = table;
    r.cls = cls;
    r.source = source_name(data.source);
    r.name = QString::fromStdString(c.name);
    r.type = c.lock_type ? QString::fromStdString(*c.lock_type) : QString();
    r.side = side;
    r.con_bounces = count(k.con_bounces);
    r.contentions = count(k.contentions);
    r.wait_min_us = micros(k.wait.min_ns);
    r.wait_avg_us = micros(k.wait.avg_ns);
    r.wait_max_us = micros(k.wait.max_ns);
    r.wait_total_us = micros(k.wait.total_ns);
    r.acq_bounces = count(k.acq_bounces);
    r.acquisitions = count(k.acquisitions);
    r.hold_min_us = micros(k.hold.min_ns);
    r.hold_avg_us = micros(k.hold.avg_ns);
    r.hold_max_us = micros(k.hold.max_ns);
    r.hold_total_us = micros(k.hold.total_ns);
    rows.push_back(std::move(r));
}

// A column over an optional member: empty cells sort below every value.
template <class Row>
Column<Row> optional_column(const QString& title, std::optional<double> Row::*member, int decimals,
                            bool heat = false) {
    return {title,
            [member](const Row& r) { return (r.*member).value_or(-1.0); },
            [member, decimals](const Row& r) {
                return r.*member ? QString::number(*(r.*member), 'f', decimals)
                                 : QStringLiteral("–");
            },
            {},
            heat};
}

// Summed over sides and tables, per class name.
struct Totals {
    std::optional<double> contentions, wait_us;
};
std::map<QString, Totals> totals_by_name(const std::vector<store::LockData>& tables) {
    std::map<QString, Totals> out;
    for (const auto& t : tables)
        for (const auto& c : t.report.classes)
            for (const auto* side : {&c.write, &c.read})
                if (*side) {
                    Totals& x = out[QString::fromStdString(c.name)];
                    if (auto v = count((*side)->contentions))
                        x.contentions = x.contentions.value_or(0) + *v;
                    if (auto v = micros((*side)->wait.total_ns))
                        x.wait_us = x.wait_us.value_or(0) + *v;
                }
    return out;
}

} // namespace

std::vector<LockRow> lock_rows(const std::vector<store::LockData>& tables) {
    std::vector<LockRow> rows;
    for (std::size_t t = 0; t < tables.size(); ++t) {
        const auto& classes = tables[t].report.classes;
        for (std::size_t c = 0; c < classes.size(); ++c) {
            const auto& k = classes[c];
            const bool both = k.write && k.read;
            if (k.write)
                add_side(rows, t, c, tables[t], k, *k.write,
                         both ? QStringLiteral("W") : QString());
            if (k.read)
                add_side(rows, t, c, tables[t], k, *k.read, QStringLiteral("R"));
        }
    }
    std::stable_sort(rows.begin(), rows.end(), [](const LockRow& a, const LockRow& b) {
        return a.contentions.value_or(-1) > b.contentions.value_or(-1);
    });
    return rows;
}

std::vector<Column<LockRow>> lock_columns() {
    return {
        {QStringLiteral("Source"), [](const LockRow& r) { return r.source; }},
        {QStringLiteral("Class"), [](const LockRow& r) { return r.name; }},
        {QStringLiteral("Type"), [](const LockRow& r) { return r.type; }},
        {QStringLiteral("Side"), [](const LockRow& r) { return r.side; }},
        optional_column(QStringLiteral("Con-bounces"), &LockRow::con_bounces, 0),
        optional_column(QStringLiteral("Contentions"), &LockRow::contentions, 0, true),
        optional_column(QStringLiteral("Wait min µs"), &LockRow::wait_min_us, 2),
        optional_column(QStringLiteral("Wait avg µs"), &LockRow::wait_avg_us, 2),
        optional_column(QStringLiteral("Wait max µs"), &LockRow::wait_max_us, 2),
        optional_column(QStringLiteral("Wait total µs"), &LockRow::wait_total_us, 2, true),
        optional_column(QStringLiteral("Acq-bounces"), &LockRow::acq_bounces, 0),
        optional_column(QStringLiteral("Acquisitions"), &LockRow::acquisitions, 0),
        optional_column(QStringLiteral("Hold min µs"), &LockRow::hold_min_us, 2),
        optional_column(QStringLiteral("Hold avg µs"), &LockRow::hold_avg_us, 2),
        optional_column(QStringLiteral("Hold max µs"), &LockRow::hold_max_us, 2),
        optional_column(QStringLiteral("Hold total µs"), &LockRow::hold_total_us, 2),
    };
}

std::vector<LockPointRow> lock_point_rows(const locks::LockClassStats& cls) {
    std::vector<LockPointRow> rows;
    for (const auto& p : cls.contention_points)
        rows.push_back({QStringLiteral("contention"), static_cast<double>(p.count),
                        QString::fromStdString(p.symbol)});
    for (const auto& p : cls.contending_points)
        rows.push_back({QStringLiteral("contending"), static_cast<double>(p.count),
                        QString::fromStdString(p.symbol)});
    for (const auto& f : cls.stack)
        rows.push_back({QStringLiteral("stack"), 0, QString::fromStdString(f.symbol)});
    return rows;
}

std::vector<Column<LockPointRow>> lock_point_columns() {
    return {
        {QStringLiteral("Point"), [](const LockPointRow& r) { return r.kind; }},
        {QStringLiteral("Count"),
         [](const LockPointRow& r) { return r.count; },
         [](const LockPointRow& r) { return QString::number(r.count, 'f', 0); },
         {},
         true},
        {QStringLiteral("Call site"), [](const LockPointRow& r) { return r.site; }},
    };
}

std::optional<double> LockCompareRow::change_percent() const {
    if (!contentions_before || !contentions_after || *contentions_before <= 0)
        return std::nullopt;
    return (*contentions_after / *contentions_before - 1) * 100;
}

std::vector<LockCompareRow> lock_compare_rows(const std::vector<store::LockData>& before,
                                              const std::vector<store::LockData>& after) {
    const auto b = totals_by_name(before), a = totals_by_name(after);
    std::map<QString, LockCompareRow> merged;
    for (const auto& [name, t] : b) {
        auto& r = merged[name];
        r.name = name;
        r.contentions_before = t.contentions;
        r.wait_before_us = t.wait_us;
    }
    for (const auto& [name, t] : a) {
        auto& r = merged[name];
        r.name = name;
        r.contentions_after = t.contentions;
        r.wait_after_us = t.wait_us;
    }
    std::vector<LockCompareRow> rows;
    for (auto& [name, r] : merged)
        rows.push_back(std::move(r));
    std::stable_sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) {
        return std::max(x.contentions_before.value_or(0), x.contentions_after.value_or(0)) >
               std::max(y.contentions_before.value_or(0), y.contentions_after.value_or(0));
    });
    return rows;
}

std::vector<Column<LockCompareRow>> lock_compare_columns() {
    using R = LockCompareRow;
    return {
        {QStringLiteral("Class"), [](const R& r) { return r.name; }},
        // No heat bars: each column would be scaled to its own maximum, and a full bar after a
        // 99 % drop reads as no change.
        optional_column(QStringLiteral("Contentions before"), &R::contentions_before, 0),
        optional_column(QStringLiteral("Contentions after"), &R::contentions_after, 0),
        {QStringLiteral("Change"), [](const R& r) { return r.change_percent().value_or(0); },
         [](const R& r) {
             const auto c = r.change_percent();
             return c ? QStringLiteral("%1%2%").arg(*c >= 0 ? "+" : "").arg(*c, 0, 'f', 1)
                      : QStringLiteral("–");
         }},
        optional_column(QStringLiteral("Wait total before µs"), &R::wait_before_us, 2),
        optional_column(QStringLiteral("Wait total after µs"), &R::wait_after_us, 2),
    };
}

namespace {
QString duration_label(std::size_t bucket) {
    const double ns = bucket == 0 ? 0 : static_cast<double>(std::uint64_t{1} << bucket);
    return ns < 1e3   ? QStringLiteral("%1ns").arg(ns)
           : ns < 1e6 ? QStringLiteral("%1µs").arg(ns / 1e3, 0, 'g', 3)
           : ns < 1e9 ? QStringLiteral("%1ms").arg(ns / 1e6, 0, 'g', 3)
                      : QStringLiteral("%1s").arg(ns / 1e9, 0, 'g', 3);
}
} // namespace

HistogramBars histogram_bars(const locks::WaitHistogram& histogram) {
    const auto& c = histogram.counts;
    const std::uint64_t peak = *std::max_element(c.begin(), c.end());
    HistogramBars bars;
    if (peak == 0)
        return bars;
    // Buckets with at least 1/1000 of the peak get a bar each; the thin tails on either side
    // are summed into one "<" and one "≥" bar, so every wait is still counted.
    std::size_t first = c.size(), last = 0;
    for (std::size_t i = 0; i < c.size(); ++i)
        if (c[i] > 0 && c[i] * 1000 >= peak) {
            first = std::min(first, i);
            last = i;
        }
    double below = 0, above = 0;
    for (std::size_t i = 0; i < c.size(); ++i)
        (i < first ? below : above) += i < first || i > last ? static_cast<double>(c[i]) : 0;
    if (below > 0) {
        bars.labels << QStringLiteral("<") + duration_label(first);
        bars.counts << below;
    }
    for (std::size_t i = first; i <= last; ++i) {
        bars.labels << duration_label(i);
        bars.counts << static_cast<double>(c[i]);
    }
    if (above > 0) {
        bars.labels << QStringLiteral("≥") + duration_label(last + 1);
        bars.counts << above;
    }
    return bars;
}

} // namespace hitmap::gui
