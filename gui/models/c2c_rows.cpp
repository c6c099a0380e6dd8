#include "gui/models/c2c_rows.hpp"

#include "collector/analysis/cacheline_columns.hpp"
#include "collector/report/cacheline_report.hpp"
#include "gui/models/number_text.hpp"
#include "gui/models/unknown_text.hpp"

namespace hitmap::gui {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// A count, or unknown where the run's source could not count it.
using Count = std::optional<std::uint64_t>;

QVariant count_variant(Count v) {
    return v ? QVariant::fromValue<qulonglong>(*v) : QVariant();
}

// A column of a count the run's source may not have: "–" where unknown; a known count reads
// as the views show any number (in the locale's digit grouping).
template <class Row>
Column<Row> count_column(const QString& title, Count (*get)(const Row&), bool heat = false) {
    return {title,
            [get](const Row& r) { return count_variant(get(r)); },
            [get](const Row& r) {
                return text_or_unknown(get(r), [](std::uint64_t v) { return number_text(v); });
            },
            {},
            heat};
}

// A raw count and its rate as two columns that share one accessor.
template <class Row>
void add_count(std::vector<Column<Row>>& cols, const Basis& basis, const QString& title,
               Count (*get)(const Row&), bool heat = false) {
    cols.push_back(count_column(title, get, heat));
    cols.push_back(
        {title + qs(analysis::rate_suffix(basis)),
         [get](const Row& r) { return variant_or_unknown(analysis::rate(get(r), r.basis)); },
         [get](const Row& r) { return qs(analysis::rate_text(get(r), r.basis)); },
         {},
         false});
}

QVariant cell_variant(const analysis::Cell& cell) {
    struct Visit {
        QVariant operator()(std::monostate) const { return {}; }
        QVariant operator()(const std::string& s) const { return qs(s); }
        QVariant operator()(std::int64_t v) const { return QVariant::fromValue<qlonglong>(v); }
        QVariant operator()(double v) const { return v; }
    };
    return std::visit(Visit{}, cell);
}

// As the views show any number: in the locale's digit grouping, with the column's decimals.
QString cell_qtext(const analysis::Cell& cell, const analysis::CachelineColumn& column) {
    struct Visit {
        const analysis::CachelineColumn& column;
        QString operator()(std::monostate) const { return unknown_qtext(); }
        QString operator()(const std::string& s) const { return qs(s); }
        QString operator()(std::int64_t v) const { return number_text(std::uint64_t(v)); }
        QString operator()(double v) const {
            return number_text(v, column.decimals) + qs(column.suffix);
        }
    };
    return std::visit(Visit{column}, cell);
}

QString text_or_dash(const std::optional<std::string>& s) {
    return s ? qs(*s) : unknown_qtext();
}

QString cycles_text(const std::optional<double>& v) {
    return text_or_unknown(v, [](double x) { return QString::number(x, 'f', 0); });
}

} // namespace

QString line_title(const store::C2cData& data, const c2c::LineKey& line) {
    return QStringLiteral("%1 [%2]")
        .arg(qs(analysis::object_name(data, line.object)))
        .arg(line.index);
}

std::vector<OffsetRow> offset_rows(const store::C2cData& data, const c2c::LineKey& line) {
    std::vector<OffsetRow> rows;
    for (const auto& f : data.result.fields)
        if (f.line == line)
            rows.push_back({f.offset, f.size, qs(f.field_name), data.shown(f.counts),
                            analysis::rate_basis(data)});
    return rows;
}

std::vector<PairRow> pair_rows(const store::C2cData& data, const c2c::LineKey& line) {
    std::vector<PairRow> rows;
    for (const auto& p : data.result.pairs)
        if (p.line == line)
            rows.push_back({qs(p.accessor_name),
                            p.writer ? qs(p.writer_name) : QStringLiteral("(never written)"),
                            p.true_sharing, p.counts, analysis::rate_basis(data)});
    return rows;
}

std::vector<CpuRow> cpu_rows(const store::C2cData& data, const c2c::LineKey& line) {
    const QString who = data.result.model_cpus == c2c::ModelCpus::thread ? QStringLiteral("thread")
                                                                         : QStringLiteral("cpu");
    std::vector<CpuRow> rows;
    for (const auto& c : data.result.cpus)
        if (c.line == line)
            rows.push_back({who + QLatin1Char(' ') + QString::number(c.cpu), data.shown(c.counts),
                            analysis::rate_basis(data)});
    return rows;
}

std::vector<Column<analysis::CachelineRow>> line_columns(const Basis& basis) {
    using analysis::CachelineColumn, analysis::CachelineRow;
    std::vector<Column<CachelineRow>> cols;
    for (const CachelineColumn& c :
         analysis::run_line_columns(basis, analysis::LineTable::browse)) {
        const auto value = c.value;
        cols.push_back({qs(c.header),
                        [value](const CachelineRow& r) { return cell_variant(value(r)); },
                        [c](const CachelineRow& r) { return cell_qtext(c.value(r), c); },
                        {},
                        c.heat});
    }
    return cols;
}

std::vector<Column<OffsetRow>> offset_columns(const Basis& basis) {
    std::vector<Column<OffsetRow>> cols{
        {QStringLiteral("Offset"), [](const OffsetRow& r) { return r.offset; },
         [](const OffsetRow& r) { return QStringLiteral("0x%1").arg(r.offset, 0, 16); }},
        {QStringLiteral("Field"), [](const OffsetRow& r) { return r.field; }},
        {QStringLiteral("Size"), [](const OffsetRow& r) { return r.size; }},
    };
    add_count<OffsetRow>(
        cols, basis, QStringLiteral("Hitm"),
        [](const OffsetRow& r) -> Count { return r.counts.hitm; }, true);
    add_count<OffsetRow>(
        cols, basis, QStringLiteral("Xfer"), [](const OffsetRow& r) { return r.counts.transfers; },
        true);
    cols.push_back({QStringLiteral("LoadHitm"),
                    [](const OffsetRow& r) { return count_variant(r.counts.load_hitm); }});
    cols.push_back(count_column<OffsetRow>(QStringLiteral("StoreHitm"),
                                           [](const OffsetRow& r) { return r.counts.store_hitm; }));
    cols.push_back({QStringLiteral("Loads"),
                    [](const OffsetRow& r) { return count_variant(r.counts.loads); }});
    cols.push_back({QStringLiteral("Stores"),
                    [](const OffsetRow& r) { return count_variant(r.counts.stores); }});
    return cols;
}

std::vector<Column<PairRow>> pair_columns(const Basis& basis) {
    std::vector<Column<PairRow>> cols{
        {QStringLiteral("Accessor"), [](const PairRow& r) { return r.accessor; }},
        {QStringLiteral("Last writer"), [](const PairRow& r) { return r.writer; }},
        {QStringLiteral("Sharing"),
         [](const PairRow& r) {
             return r.true_sharing ? QStringLiteral("true sharing")
                                   : QStringLiteral("false sharing");
         },
         {},
         [](const PairRow& r) {
             return r.true_sharing ? QStringLiteral("The accessor reads bytes the writer wrote")
                                   : QStringLiteral("Different bytes on one line: padding helps");
         }},
    };
    add_count<PairRow>(
        cols, basis, QStringLiteral("Hitm"),
        [](const PairRow& r) -> Count { return r.counts.hitm(); }, true);
    cols.push_back({QStringLiteral("Store-to-shared"),
                    [](const PairRow& r) { return count_variant(r.counts.store_shared); }});
    cols.push_back({QStringLiteral("Inval"),
                    [](const PairRow& r) { return count_variant(r.counts.invalidations); }});
    return cols;
}

std::vector<Column<analysis::CodeRow>> code_columns() {
    using analysis::CodeRow;
    const auto count = [](const QString& title, std::optional<std::uint64_t> CodeRow::*member,
                          bool heat = false) {
        return Column<CodeRow>{title,
                               [member](const CodeRow& r) { return count_variant(r.*member); },
                               [member](const CodeRow& r) {
                                   return text_or_unknown(r.*member, [](std::uint64_t v) {
                                       return QLocale().toString(qulonglong{v});
                                   });
                               },
                               {},
                               heat};
    };
    const auto cycles = [](const QString& title, std::optional<double> CodeRow::*member) {
        return Column<CodeRow>{title,
                               [member](const CodeRow& r) { return variant_or_unknown(r.*member); },
                               [member](const CodeRow& r) { return cycles_text(r.*member); }};
    };
    const auto text = [](const QString& title, std::optional<std::string> CodeRow::*member) {
        return Column<CodeRow>{title,
                               [member](const CodeRow& r) { return text_or_dash(r.*member); }};
    };
    return {
        {QStringLiteral("Offset"), [](const CodeRow& r) { return r.offset; },
         [](const CodeRow& r) { return QStringLiteral("0x%1").arg(r.offset, 0, 16); }},
        {QStringLiteral("Field"), [](const CodeRow& r) { return qs(r.field); }},
        count(QStringLiteral("RmtHitm"), &CodeRow::rmt_hitm, true),
        count(QStringLiteral("LclHitm"), &CodeRow::lcl_hitm, true),
        count(QStringLiteral("St L1Hit"), &CodeRow::store_l1_hit),
        count(QStringLiteral("St L1Miss"), &CodeRow::store_l1_miss),
        cycles(QStringLiteral("rmt cycles"), &CodeRow::rmt_hitm_cycles),
        cycles(QStringLiteral("lcl cycles"), &CodeRow::lcl_hitm_cycles),
        cycles(QStringLiteral("load cycles"), &CodeRow::load_cycles),
        count(QStringLiteral("Records"), &CodeRow::records),
        count(QStringLiteral("CPUs"), &CodeRow::cpu_count),
        text(QStringLiteral("Node{cpus}"), &CodeRow::cpus),
        text(QStringLiteral("Pid"), &CodeRow::pid),
        text(QStringLiteral("Tid"), &CodeRow::tid),
        text(QStringLiteral("Symbol"), &CodeRow::symbol),
        text(QStringLiteral("Source:Line"), &CodeRow::source),
        text(QStringLiteral("Object"), &CodeRow::object),
        text(QStringLiteral("Code address"), &CodeRow::code_address),
    };
}

std::vector<analysis::FieldAccess> access_rows(const store::C2cData& data,
                                               const analysis::RunDetail& detail,
                                               const c2c::LineKey& line) {
    const engine::ObjectInfo* o = store::find_object(data, line.object);
    std::vector<analysis::FieldAccess> rows;
    for (auto& f : analysis::field_access(data, detail.drilldown).fields)
        if (o && f.object == o->name && f.line == line.index)
            rows.push_back(std::move(f));
    return rows;
}

std::vector<Column<analysis::FieldAccess>> access_columns() {
    using analysis::FieldAccess;
    return {
        {QStringLiteral("Field"), [](const FieldAccess& f) { return qs(f.field); }},
        {QStringLiteral("Reads"), [](const FieldAccess& f) { return count_variant(f.reads); }},
        {QStringLiteral("Writes"), [](const FieldAccess& f) { return count_variant(f.writes); }},
        {QStringLiteral("Hitm"),
         [](const FieldAccess& f) { return count_variant(f.hitm); },
         {},
         {},
         true},
        {QStringLiteral("Use"),
         [](const FieldAccess& f) { return qs(std::string(analysis::to_string(f.use))); }},
    };
}

QString drilldown_summary(const analysis::LineDrilldown& d, std::optional<double> hitm_share) {
    const auto count = [](const std::optional<std::uint64_t>& v) {
        return text_or_unknown(v,
                               [](std::uint64_t x) { return QLocale().toString(qulonglong{x}); });
    };
    QString text =
        QObject::tr("Lcl HITM %1 · Rmt HITM %2").arg(count(d.lcl_hitm), count(d.rmt_hitm));
    if (hitm_share)
        text += QObject::tr(" · %1 % of captured HITM").arg(*hitm_share, 0, 'f', 1);
    text += QObject::tr(" · loads %1 · stores %2 · node %3 · mean load cycles %4%5")
                .arg(count(d.loads), count(d.stores), text_or_dash(d.node),
                     cycles_text(d.mean_load_cycles),
                     d.mean_load_cycles && d.cycles_estimated ? QObject::tr(" (estimated)")
                                                              : QString());
    if (d.no_code_reason)
        text += QObject::tr(" · code: %1").arg(qs(*d.no_code_reason));
    return text;
}

std::vector<Column<CpuRow>> cpu_columns(const Basis& basis) {
    std::vector<Column<CpuRow>> cols{
        {QStringLiteral("CPU"), [](const CpuRow& r) { return r.who; }}};
    add_count<CpuRow>(
        cols, basis, QStringLiteral("Hitm"), [](const CpuRow& r) -> Count { return r.counts.hitm; },
        true);
    add_count<CpuRow>(
        cols, basis, QStringLiteral("Xfer"), [](const CpuRow& r) { return r.counts.transfers; },
        true);
    cols.push_back(
        {QStringLiteral("Loads"), [](const CpuRow& r) { return count_variant(r.counts.loads); }});
    cols.push_back(
        {QStringLiteral("Stores"), [](const CpuRow& r) { return count_variant(r.counts.stores); }});
    return cols;
}

} // namespace hitmap::gui
