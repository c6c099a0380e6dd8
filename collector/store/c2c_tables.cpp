#include "collector/store/c2c_tables.hpp"

#include "collector/store/database.hpp"
#include "collector/store/errors.hpp"
#include "collector/store/layout_table.hpp"
#include "collector/store/run_writer.hpp"
#include "collector/store/sql_connection.hpp"
#include "collector/store/sql_text.hpp"

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>
#include <map>

namespace hitmap::store {

namespace {

constexpr const char* kCountColumns =
    "l1_hit, load_hitm, store_hitm, clean_forward, store_shared, cold, invalidations, loads, "
    "stores, stall_cycles";
constexpr int kCountColumnCount = 10;

// Binds the ten count columns starting at parameter `first`.
void bind_counts(SQLite::Statement& st, int first, const c2c::ClassCounts& c) {
    const std::int64_t values[] = {
        static_cast<std::int64_t>(c.l1_hit),        static_cast<std::int64_t>(c.load_hitm),
        static_cast<std::int64_t>(c.store_hitm),    static_cast<std::int64_t>(c.clean_forward),
        static_cast<std::int64_t>(c.store_shared),  static_cast<std::int64_t>(c.cold),
        static_cast<std::int64_t>(c.invalidations), static_cast<std::int64_t>(c.loads),
        static_cast<std::int64_t>(c.stores)};
    for (int i = 0; i < 9; ++i)
        st.bind(first + i, values[i]);
    st.bind(first + 9, c.stall_cycles);
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
    const std::int64_t run_id = run_id_;
    SQLite::Statement obj(sql, "INSERT INTO object (run_id, object_id, name, layout_id, phase, "
                               "layout_origin) VALUES (?, ?, ?, ?, ?, ?)");
    for (const auto& o : data.objects) {
        obj.bind(1, run_id);
        obj.bind(2, static_cast<int>(o.id));
        obj.bind(3, o.name);
        obj.bind(4, upsert_layout(sql, o.layout));
        obj.bind(5, static_cast<std::int64_t>(o.phase));
        if (o.layout.origin.empty())
            obj.bind(6);
        else
            obj.bind(6, o.layout.origin);
        obj.exec();
        obj.reset();
    }
    const auto& r = data.result;
    std::map<c2c::LineKey, std::int64_t> line_ids;
    SQLite::Statement line(
        sql,
        fmt::format("INSERT INTO cacheline (run_id, line_id, object_id, line_index, address, {}) "
                    "VALUES (?, ?, ?, ?, ?, {})",
                    kCountColumns, placeholders(kCountColumnCount)));
    for (const auto& l : r.lines) {
        const auto id = static_cast<std::int64_t>(line_ids.size());
        line_ids[l.line] = id;
        line.bind(1, run_id);
        line.bind(2, id);
        line.bind(3, static_cast<int>(l.line.object));
        line.bind(4, static_cast<std::int64_t>(l.line.index));
        line.bind(5, static_cast<std::int64_t>(l.line.address));
        bind_counts(line, 6, l.counts);
        line.exec();
        line.reset();
    }
    SQLite::Statement field(
        sql,
        fmt::format("INSERT INTO line_field (run_id, line_id, offset, size, field_id, field, {}) "
                    "VALUES (?, ?, ?, ?, ?, ?, {})",
                    kCountColumns, placeholders(kCountColumnCount)));
    for (const auto& f : r.fields) {
        field.bind(1, run_id);
        field.bind(2, line_ids.at(f.line));
        field.bind(3, static_cast<std::int64_t>(f.offset));
        field.bind(4, static_cast<std::int64_t>(f.size));
        field.bind(5, static_cast<int>(f.field));
        field.bind(6, f.field_name);
        bind_counts(field, 7, f.counts);
        field.exec();
        field.reset();
    }
    SQLite::Statement cpu(
        sql, fmt::format("INSERT INTO line_cpu (run_id, line_id, cpu, {}) VALUES (?, ?, ?, {})",
                         kCountColumns, placeholders(kCountColumnCount)));
    for (const auto& c : r.cpus) {
        cpu.bind(1, run_id);
        cpu.bind(2, line_ids.at(c.line));
        cpu.bind(3, static_cast<std::int64_t>(c.cpu));
        bind_counts(cpu, 4, c.counts);
        cpu.exec();
        cpu.reset();
    }
    SQLite::Statement pair(
        sql,
        "INSERT INTO field_pair (run_id, line_id, accessor_field_id, accessor, writer_field_id, "
        "writer, true_sharing, load_hitm, store_hitm, store_shared, invalidations) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (const auto& p : r.pairs) {
        pair.bind(1, run_id);
        pair.bind(2, line_ids.at(p.line));
        pair.bind(3, static_cast<int>(p.accessor));
        pair.bind(4, p.accessor_name);
        if (p.writer)
            pair.bind(5, static_cast<int>(*p.writer));
        else
            pair.bind(5);
        pair.bind(6, p.writer_name);
        pair.bind(7, p.true_sharing ? 1 : 0);
        pair.bind(8, static_cast<std::int64_t>(p.counts.load_hitm));
        pair.bind(9, static_cast<std::int64_t>(p.counts.store_hitm));
        pair.bind(10, static_cast<std::int64_t>(p.counts.store_shared));
        pair.bind(11, static_cast<std::int64_t>(p.counts.invalidations));
        pair.exec();
        pair.reset();
    }
    const TraceInfo& t = data.trace;
    SQLite::Statement trace(
        sql,
        "INSERT INTO run_trace (run_id, path, format, threads, records, traced_ops, "
        "dropped_records, cpu_migrations, bytes, model_cpus, line_size, clock, cost_table, "
        "file_hash, unknown_counts, capture_hitm) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
        "?, ?, ?)");
    trace.bind(1, run_id);
    if (t.path)
        trace.bind(2, *t.path);
    else
        trace.bind(2);
    trace.bind(3, t.format);
    trace.bind(4, static_cast<std::int64_t>(t.threads));
    trace.bind(5, static_cast<std::int64_t>(t.records));
    trace.bind(6, static_cast<std::int64_t>(t.traced_ops));
    trace.bind(7, static_cast<std::int64_t>(t.dropped_records));
    trace.bind(8, static_cast<std::int64_t>(t.cpu_migrations));
    if (t.bytes)
        trace.bind(9, static_cast<std::int64_t>(*t.bytes));
    else
        trace.bind(9);
    trace.bind(10, t.model_cpus);
    trace.bind(11, static_cast<std::int64_t>(t.line_size));
    trace.bind(12, t.clock);
    trace.bind(13, t.cost_table);
    if (t.file_hash)
        trace.bind(14, *t.file_hash);
    else
        trace.bind(14);
    if (const std::string unknown = unknown_names(t.known); !unknown.empty())
        trace.bind(15, unknown);
    else
        trace.bind(15);
    if (t.capture_hitm)
        trace.bind(16, static_cast<std::int64_t>(*t.capture_hitm));
    else
        trace.bind(16);
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
    r.model_cpus = t.model_cpus == "thread" ? c2c::ModelCpus::thread : c2c::ModelCpus::recorded;
    r.records = t.records;
    std::map<std::int64_t, c2c::LineKey> keys;
    SQLite::Statement line(
        sql, fmt::format("SELECT line_id, object_id, line_index, address, {} FROM cacheline "
                         "WHERE run_id = ? ORDER BY line_id",
                         kCountColumns));
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
                         kCountColumns));
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
                    kCountColumns));
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
