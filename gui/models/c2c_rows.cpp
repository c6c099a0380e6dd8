#include "gui/models/c2c_rows.hpp"

#include "collector/report/c2c_report.hpp"
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

QString rate_text(const std::optional<double>& v) {
    return text_or_unknown(v, [](double x) { return number_text(x, 2); });
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

// A raw count and its per-1k rate as two columns that share one accessor.
template <class Row>
void add_count(std::vector<Column<Row>>& cols, const QString& title, Count (*get)(const Row&),
               bool heat = false) {
    cols.push_back(count_column(title, get, heat));
    cols.push_back(
        {title + QStringLiteral("/1k op"),
         [get](const Row& r) { return variant_or_unknown(report::per_thousand(get(r), r.ops)); },
         [get](const Row& r) { return rate_text(report::per_thousand(get(r), r.ops)); },
         {},
         false});
}

} // namespace

QString line_title(const store::C2cData& data, const c2c::LineKey& line) {
    const engine::ObjectInfo* o = store::find_object(data, line.object);
    return QStringLiteral("%1 [%2]")
        .arg(o ? qs(o->name) : QStringLiteral("object %1").arg(line.object))
        .arg(line.index);
}

std::vector<LineRow> line_rows(const store::C2cData& data) {
    std::vector<LineRow> rows;
    int rank = 0;
    for (const c2c::LineStats* l : report::ranked_lines(data.result, true)) {
        const engine::ObjectInfo* o = store::find_object(data, l->line.object);
        rows.push_back({rank++, l->line, o ? qs(o->name) : QString::number(l->line.object),
                        qs(report::fields_on_line(data, l->line)), data.shown(l->counts),
                        data.traced_ops()});
    }
    return rows;
}

std::vector<OffsetRow> offset_rows(const store::C2cData& data, const c2c::LineKey& line) {
    std::vector<OffsetRow> rows;
    for (const auto& f : data.result.fields)
        if (f.line == line)
            rows.push_back(
                {f.offset, f.size, qs(f.field_name), data.shown(f.counts), data.traced_ops()});
    return rows;
}

std::vector<PairRow> pair_rows(const store::C2cData& data, const c2c::LineKey& line) {
    std::vector<PairRow> rows;
    for (const auto& p : data.result.pairs)
        if (p.line == line)
            rows.push_back({qs(p.accessor_name),
                            p.writer ? qs(p.writer_name) : QStringLiteral("(never written)"),
                            p.true_sharing, p.counts, data.traced_ops()});
    return rows;
}

std::vector<CpuRow> cpu_rows(const store::C2cData& data, const c2c::LineKey& line) {
    const QString who = data.result.model_cpus == c2c::ModelCpus::thread ? QStringLiteral("thread")
                                                                         : QStringLiteral("cpu");
    std::vector<CpuRow> rows;
    for (const auto& c : data.result.cpus)
        if (c.line == line)
            rows.push_back({who + QLatin1Char(' ') + QString::number(c.cpu), data.shown(c.counts),
                            data.traced_ops()});
    return rows;
}

std::vector<Column<LineRow>> line_columns() {
    std::vector<Column<LineRow>> cols{
        {QStringLiteral("#"), [](const LineRow& r) { return r.rank; }},
        {QStringLiteral("Object"), [](const LineRow& r) { return r.object; }},
        {QStringLiteral("Line"), [](const LineRow& r) { return r.key.index; }},
        // What a user looks at first: which object, which line, which fields; then counts.
        {QStringLiteral("Fields"), [](const LineRow& r) { return r.fields; }},
    };
    add_count<LineRow>(
        cols, QStringLiteral("Tot Hitm"), [](const LineRow& r) -> Count { return r.counts.hitm; },
        true);
    add_count<LineRow>(
        cols, QStringLiteral("Xfer"), [](const LineRow& r) { return r.counts.transfers; }, true);
    cols.push_back({QStringLiteral("LoadHitm"),
                    [](const LineRow& r) { return count_variant(r.counts.load_hitm); }});
    cols.push_back(count_column<LineRow>(QStringLiteral("StoreHitm"),
                                         [](const LineRow& r) { return r.counts.store_hitm; }));
    cols.push_back(count_column<LineRow>(QStringLiteral("Inval"),
                                         [](const LineRow& r) { return r.counts.invalidations; }));
    cols.push_back({QStringLiteral("CleanFwd"),
                    [](const LineRow& r) { return count_variant(r.counts.clean_forward); }});
    cols.push_back(
        {QStringLiteral("Loads"), [](const LineRow& r) { return count_variant(r.counts.loads); }});
    cols.push_back({QStringLiteral("Stores"),
                    [](const LineRow& r) { return count_variant(r.counts.stores); }});
    cols.push_back({QStringLiteral("Est. cycles"),
                    [](const LineRow& r) { return variant_or_unknown(r.counts.stall_cycles); },
                    [](const LineRow& r) {
                        return text_or_unknown(r.counts.stall_cycles,
                                               [](double v) { return number_text(v, 0); });
                    },
                    {},
                    true});
    cols.push_back(
        {QStringLiteral("Address"), [](const LineRow& r) { return count_variant(r.key.address); },
         [](const LineRow& r) { return QStringLiteral("0x%1").arg(r.key.address, 0, 16); }});
    return cols;
}

std::vector<Column<OffsetRow>> offset_columns() {
    std::vector<Column<OffsetRow>> cols{
        {QStringLiteral("Offset"), [](const OffsetRow& r) { return r.offset; },
         [](const OffsetRow& r) { return QStringLiteral("0x%1").arg(r.offset, 0, 16); }},
        {QStringLiteral("Field"), [](const OffsetRow& r) { return r.field; }},
        {QStringLiteral("Size"), [](const OffsetRow& r) { return r.size; }},
    };
    add_count<OffsetRow>(
        cols, QStringLiteral("Hitm"), [](const OffsetRow& r) -> Count { return r.counts.hitm; },
        true);
    add_count<OffsetRow>(
        cols, QStringLiteral("Xfer"), [](const OffsetRow& r) { return r.counts.transfers; }, true);
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

std::vector<Column<PairRow>> pair_columns() {
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
        cols, QStringLiteral("Hitm"), [](const PairRow& r) -> Count { return r.counts.hitm(); },
        true);
    cols.push_back({QStringLiteral("Store-to-shared"),
                    [](const PairRow& r) { return count_variant(r.counts.store_shared); }});
    cols.push_back({QStringLiteral("Inval"),
                    [](const PairRow& r) { return count_variant(r.counts.invalidations); }});
    return cols;
}

std::vector<Column<CpuRow>> cpu_columns() {
    std::vector<Column<CpuRow>> cols{
        {QStringLiteral("CPU"), [](const CpuRow& r) { return r.who; }}};
    add_count<CpuRow>(
        cols, QStringLiteral("Hitm"), [](const CpuRow& r) -> Count { return r.counts.hitm; }, true);
    add_count<CpuRow>(
        cols, QStringLiteral("Xfer"), [](const CpuRow& r) { return r.counts.transfers; }, true);
    cols.push_back(
        {QStringLiteral("Loads"), [](const CpuRow& r) { return count_variant(r.counts.loads); }});
    cols.push_back(
        {QStringLiteral("Stores"), [](const CpuRow& r) { return count_variant(r.counts.stores); }});
    return cols;
}

} // namespace hitmap::gui
