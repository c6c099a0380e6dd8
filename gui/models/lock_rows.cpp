#include "gui/models/lock_rows.hpp"

#include "gui/models/number_text.hpp"

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
                return r.*member ? number_text(*(r.*member), decimals) : QStringLiteral("–");
            },
            {},
            heat};
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
         [](const LockPointRow& r) { return number_text(r.count, 0); },
         {},
         true},
        {QStringLiteral("Call site"), [](const LockPointRow& r) { return r.site; }},
    };
}

std::vector<Column<analysis::LockChange>> lock_compare_columns() {
    using R = analysis::LockChange;
    return {
        {QStringLiteral("Class"), [](const R& r) { return QString::fromStdString(r.name); }},
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

} // namespace hitmap::gui
