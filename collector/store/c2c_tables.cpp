#include "collector/store/c2c_tables.hpp"

#include "collector/store/database.hpp"
#include "collector/store/errors.hpp"
#include "collector/store/layout_table.hpp"
#include "collector/store/run_writer.hpp"
#include "collector/store/sql_connection.hpp"
#include "collector/store/sql_text.hpp"

#include <SQLiteCpp/SQLiteCpp.h>
#include <array>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <string_view>
#include <vector>

namespace hitmap::store {

namespace {

// The count columns of cacheline, line_field and line_cpu, in the order column_counts reads.
constexpr std::array<std::string_view, 10> kCountColumns = {
    "l1_hit", "load_hitm",     "store_hitm", "clean_forward", "store_shared",
    "cold",   "invalidations", "loads",      "stores",        "stall_cycles"};

std::string count_columns() {
    return fmt::format("{}", fmt::join(kCountColumns, ", "));
}

// `columns`, then the count columns.
std::vector<std::string_view> with_counts(std::initializer_list<std::string_view> columns) {
    std::vector<std::string_view> all(columns);
    all.insert(all.end(), kCountColumns.begin(), kCountColumns.end());
    return all;
}

void bind_counts(SQLite::Statement& st, const c2c::ClassCounts& c) {
    st.bind(":l1_hit", static_cast<std::int64_t>(c.l1_hit));
    st.bind(":clean_forward", static_cast<std::int64_t>(c.clean_forward));
    st.bind(":load_hitm", static_cast<std::int64_t>(c.load_hitm));
    st.bind(":store_hitm", static_cast<std::int64_t>(c.store_hitm));
    st.bind(":store_shared", static_cast<std::int64_t>(c.store_shared));
    st.bind(":cold", static_cast<std::int64_t>(c.cold));
    st.bind(":loads", static_cast<std::int64_t>(c.loads));
    st.bind(":stores", static_cast<std::int64_t>(c.stores));
    st.bind(":invalidations", static_cast<std::int64_t>(c.invalidations));
    st.bind(":stall_cycles", c.stall_cycles);
}

template <class T>
void bind_optional(SQLite::Statement& st, const char* name, const std::optional<T>& v) {
    if (v)
        st.bind(name, *v);
    else
        st.bind(name);
}

c2c::ClassCounts column_counts(SQLite::Statement& st, int first) {
    auto u = [&](int i) { return static_cast<std::uint64_t>(st.getColumn(first + i).getInt64()); };
    c2c::ClassCounts c;
    c.l1_hit = u(0);
    c.load_hitm = u(1);
    c.store_hitm = u(2);
    c.clean_forward = u(3);
    c.store_shared = u(4);
    c.cold = u(5);
    c.invalidations = u(6);
    c.loads = u(7);
    c.stores = u(8);
    c.stall_cycles = st.getColumn(first + 9).getDouble();
    return c;
}

} // namespace

std::optional<std::uint64_t> C2cData::traced_ops() const {
    return trace.known.traced_ops ? std::optional(trace.traced_ops) : std::nullopt;
}

std::optional<std::uint64_t> C2cData::dropped_records() const {
    return trace.known.dropped_records ? std::optional(trace.dropped_records) : std::nullopt;
}

std::optional<std::uint64_t> C2cData::cpu_migrations() const {
    return trace.known.cpu_migrations ? std::optional(trace.cpu_migrations) : std::nullopt;
}

const engine::ObjectInfo* find_object(const C2cData& data, engine::ObjectId id) {
    for (const auto& o : data.objects)
        if (o.id == id)
            return &o;
    return nullptr;
}

void RunWriter::write(const C2cData& data) {
    SQLite::Database& sql = sql_connection(db_);
    SQLite::Statement obj(sql, named_insert("object", {"run_id", "object_id", "name", "layout_id",
                                                       "phase", "layout_origin"}));
    for (const auto& o : data.objects) {
        obj.bind(":run_id", run_id_);
        obj.bind(":object_id", static_cast<int>(o.id));
        obj.bind(":name", o.name);
        obj.bind(":layout_id", upsert_layout(sql, o.layout));
        obj.bind(":phase", static_cast<std::int64_t>(o.phase));
        // Empty when unknown, as engine::Layout has it; stored as NULL.
        bind_optional(obj, ":layout_origin",
                      o.layout.origin.empty() ? std::nullopt : std::optional(o.layout.origin));
        obj.exec();
        obj.reset();
    }
    const auto& r = data.result;
    std::map<c2c::LineKey, std::int64_t> line_ids;
    SQLite::Statement line(sql,
                           named_insert("cacheline", with_counts({"run_id", "line_id", "object_id",
                                                                  "line_index", "address"})));
    for (const auto& l : r.lines) {
        const auto id = static_cast<std::int64_t>(line_ids.size());
        line_ids[l.line] = id;
        line.bind(":run_id", run_id_);
        line.bind(":line_id", id);
        line.bind(":object_id", static_cast<int>(l.line.object));
        line.bind(":line_index", static_cast<std::int64_t>(l.line.index));
        line.bind(":address", static_cast<std::int64_t>(l.line.address));
        bind_counts(line, l.counts);
        line.exec();
        line.reset();
    }
    SQLite::Statement field(sql,
                            named_insert("line_field", with_counts({"run_id", "line_id", "offset",
                                                                    "size", "field_id", "field"})));
    for (const auto& f : r.fields) {
        field.bind(":run_id", run_id_);
        field.bind(":line_id", line_ids.at(f.line));
        field.bind(":offset", static_cast<std::int64_t>(f.offset));
        field.bind(":size", static_cast<std::int64_t>(f.size));
        field.bind(":field_id", static_cast<int>(f.field));
        field.bind(":field", f.field_name);
        bind_counts(field, f.counts);
        field.exec();
        field.reset();
    }
    SQLite::Statement cpu(sql, named_insert("line_cpu", with_counts({"run_id", "line_id", "cpu"})));
    for (const auto& c : r.cpus) {
        cpu.bind(":run_id", run_id_);
        cpu.bind(":line_id", line_ids.at(c.line));
        cpu.bind(":cpu", static_cast<std::int64_t>(c.cpu));
        bind_counts(cpu, c.counts);
        cpu.exec();
        cpu.reset();
    }
    SQLite::Statement pair(
        sql, named_insert("field_pair", {"run_id", "line_id", "accessor_field_id", "accessor",
                                         "writer_field_id", "writer", "true_sharing", "load_hitm",
                                         "store_hitm", "store_shared", "invalidations"}));
    for (const auto& p : r.pairs) {
        pair.bind(":run_id", run_id_);
        pair.bind(":line_id", line_ids.at(p.line));
        pair.bind(":accessor_field_id", static_cast<int>(p.accessor));
        pair.bind(":accessor", p.accessor_name);
        bind_optional(pair, ":writer_field_id",
                      p.writer ? std::optional(static_cast<int>(*p.writer)) : std::nullopt);
        pair.bind(":writer", p.writer_name);
        pair.bind(":true_sharing", p.true_sharing ? 1 : 0);
        pair.bind(":load_hitm", static_cast<std::int64_t>(p.counts.load_hitm));
        pair.bind(":store_hitm", static_cast<std::int64_t>(p.counts.store_hitm));
        pair.bind(":store_shared", static_cast<std::int64_t>(p.counts.store_shared));
        pair.bind(":invalidations", static_cast<std::int64_t>(p.counts.invalidations));
        pair.exec();
        pair.reset();
    }
    const TraceInfo& t = data.trace;
    const auto sql_int = [](std::optional<std::uint64_t> v) {
        return v ? std::optional(static_cast<std::int64_t>(*v)) : std::nullopt;
    };
    const std::string unknown = unknown_names(t.known);
    SQLite::Statement trace(
        sql, named_insert("run_trace",
                          {"run_id", "path", "format", "threads", "records", "traced_ops",
                           "dropped_records", "cpu_migrations", "bytes", "model_cpus", "line_size",
                           "clock", "cost_table", "file_hash", "unknown_counts", "capture_hitm"}));
    trace.bind(":run_id", run_id_);
    bind_optional(trace, ":path", t.path);
    trace.bind(":format", t.format);
    trace.bind(":threads", static_cast<std::int64_t>(t.threads));
    trace.bind(":records", static_cast<std::int64_t>(t.records));
    trace.bind(":traced_ops", static_cast<std::int64_t>(t.traced_ops));
    trace.bind(":dropped_records", static_cast<std::int64_t>(t.dropped_records));
    trace.bind(":cpu_migrations", static_cast<std::int64_t>(t.cpu_migrations));
    bind_optional(trace, ":bytes", sql_int(t.bytes));
    trace.bind(":model_cpus", t.model_cpus);
    trace.bind(":line_size", static_cast<std::int64_t>(t.line_size));
    trace.bind(":clock", t.clock);
    trace.bind(":cost_table", t.cost_table);
    bind_optional(trace, ":file_hash", t.file_hash);
    // Every count known is stored as NULL.
    bind_optional(trace, ":unknown_counts",
                  unknown.empty() ? std::nullopt : std::optional(unknown));
    bind_optional(trace, ":capture_hitm", sql_int(t.capture_hitm));
    trace.exec();
}

bool has_stored_trace(Database& db, std::int64_t run_id) {
    SQLite::Database& sql = sql_connection(db);
    SQLite::Statement q(sql, "SELECT 1 FROM run_trace WHERE run_id = ? AND path IS NOT NULL");
    q.bind(1, run_id);
    return q.executeStep();
}

void check_trace_name(const std::filesystem::path& db_path, std::int64_t run_id,
                      const std::string& stored) {
    const std::filesystem::path name(stored);
    if (stored.find('\0') != std::string::npos || name != name.filename() || name == "." ||
        name == ".." || name.empty())
        throw TracePathOutsideFolder(db_path, run_id, stored);
}

std::optional<C2cData> read_c2c(Database& db, std::int64_t run_id) {
    SQLite::Database& sql = sql_connection(db);
    SQLite::Statement trace(
        sql, "SELECT path, format, threads, records, traced_ops, dropped_records, cpu_migrations, "
             "bytes, model_cpus, line_size, clock, cost_table, file_hash, unknown_counts, "
             "capture_hitm FROM run_trace WHERE run_id = ?");
    trace.bind(1, run_id);
    if (!trace.executeStep())
        return std::nullopt;
    C2cData data;
    TraceInfo& t = data.trace;
    if (!trace.getColumn(0).isNull()) {
        t.path = trace.getColumn(0).getString();
        check_trace_name(db.path(), run_id, *t.path);
    }
    t.format = trace.getColumn(1).getString();
    t.threads = static_cast<std::uint32_t>(trace.getColumn(2).getInt64());
    t.records = static_cast<std::uint64_t>(trace.getColumn(3).getInt64());
    t.traced_ops = static_cast<std::uint64_t>(trace.getColumn(4).getInt64());
    t.dropped_records = static_cast<std::uint64_t>(trace.getColumn(5).getInt64());
    t.cpu_migrations = static_cast<std::uint64_t>(trace.getColumn(6).getInt64());
    if (!trace.getColumn(7).isNull())
        t.bytes = static_cast<std::uint64_t>(trace.getColumn(7).getInt64());
    t.model_cpus = trace.getColumn(8).getString();
    t.line_size = static_cast<std::uint32_t>(trace.getColumn(9).getInt64());
    t.clock = trace.getColumn(10).getString();
    t.cost_table = trace.getColumn(11).getString();
    if (!trace.getColumn(12).isNull())
        t.file_hash = trace.getColumn(12).getString();
    if (!trace.getColumn(13).isNull())
        t.known = known_from_unknown_names(trace.getColumn(13).getString());
    if (!trace.getColumn(14).isNull())
        t.capture_hitm = static_cast<std::uint64_t>(trace.getColumn(14).getInt64());

    SQLite::Statement obj(sql, "SELECT object_id, name, layout_id, phase, layout_origin FROM "
                               "object WHERE run_id = ? ORDER BY object_id");
    obj.bind(1, run_id);
    std::map<std::int64_t, engine::Layout> layouts;
    while (obj.executeStep()) {
        const std::int64_t layout_id = obj.getColumn(2).getInt64();
        if (!layouts.count(layout_id))
            layouts.emplace(layout_id, read_layout(db, layout_id));
        engine::ObjectInfo& o = data.objects.emplace_back(engine::ObjectInfo{
            static_cast<engine::ObjectId>(obj.getColumn(0).getInt()), obj.getColumn(1).getString(),
            layouts.at(layout_id), static_cast<std::uint32_t>(obj.getColumn(3).getInt64())});
        // Empty when unknown, as engine::Layout has it.
        o.layout.origin = obj.getColumn(4).getString();
    }

    auto& r = data.result;
    r.line_size = t.line_size;
    // Any text but "thread" reads as recorded, as it always has.
    r.model_cpus = c2c::model_cpus_named(t.model_cpus).value_or(c2c::ModelCpus::recorded);
    r.records = t.records;
    std::map<std::int64_t, c2c::LineKey> keys;
    SQLite::Statement line(
        sql, fmt::format("SELECT line_id, object_id, line_index, address, {} FROM cacheline "
                         "WHERE run_id = ? ORDER BY line_id",
                         count_columns()));
    line.bind(1, run_id);
    while (line.executeStep()) {
        c2c::LineKey key{static_cast<engine::ObjectId>(line.getColumn(1).getInt()),
                         static_cast<std::uint32_t>(line.getColumn(2).getInt64()),
                         static_cast<std::uint64_t>(line.getColumn(3).getInt64())};
        keys[line.getColumn(0).getInt64()] = key;
        r.lines.push_back({key, column_counts(line, 4)});
        r.totals += r.lines.back().counts;
    }
    SQLite::Statement field(
        sql, fmt::format("SELECT line_id, offset, size, field_id, field, {} FROM line_field "
                         "WHERE run_id = ? ORDER BY line_id, offset, field_id, size",
                         count_columns()));
    field.bind(1, run_id);
    while (field.executeStep())
        r.fields.push_back({keys.at(field.getColumn(0).getInt64()),
                            static_cast<std::uint32_t>(field.getColumn(1).getInt64()),
                            static_cast<std::uint32_t>(field.getColumn(2).getInt64()),
                            static_cast<engine::FieldId>(field.getColumn(3).getInt()),
                            field.getColumn(4).getString(), column_counts(field, 5)});
    SQLite::Statement cpu(
        sql,
        fmt::format("SELECT line_id, cpu, {} FROM line_cpu WHERE run_id = ? ORDER BY line_id, cpu",
                    count_columns()));
    cpu.bind(1, run_id);
    while (cpu.executeStep())
        r.cpus.push_back({keys.at(cpu.getColumn(0).getInt64()),
                          static_cast<std::uint32_t>(cpu.getColumn(1).getInt64()),
                          column_counts(cpu, 2)});
    SQLite::Statement pair(
        sql, "SELECT line_id, accessor_field_id, accessor, writer_field_id, writer, true_sharing, "
             "load_hitm, store_hitm, store_shared, invalidations FROM field_pair WHERE run_id = ? "
             "ORDER BY rowid");
    pair.bind(1, run_id);
    while (pair.executeStep()) {
        c2c::PairStats p;
        p.line = keys.at(pair.getColumn(0).getInt64());
        p.accessor = static_cast<engine::FieldId>(pair.getColumn(1).getInt());
        p.accessor_name = pair.getColumn(2).getString();
        if (!pair.getColumn(3).isNull())
            p.writer = static_cast<engine::FieldId>(pair.getColumn(3).getInt());
        p.writer_name = pair.getColumn(4).getString();
        p.true_sharing = pair.getColumn(5).getInt() != 0;
        p.counts.load_hitm = static_cast<std::uint64_t>(pair.getColumn(6).getInt64());
        p.counts.store_hitm = static_cast<std::uint64_t>(pair.getColumn(7).getInt64());
        p.counts.store_shared = static_cast<std::uint64_t>(pair.getColumn(8).getInt64());
        p.counts.invalidations = static_cast<std::uint64_t>(pair.getColumn(9).getInt64());
        r.pairs.push_back(std::move(p));
    }
    return data;
}

} // namespace hitmap::store
