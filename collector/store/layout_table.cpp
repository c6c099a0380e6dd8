#include "collector/store/layout_table.hpp"

#include "collector/store/sql_connection.hpp"
#include "engine/layout/builtin_layouts.hpp"

#include <SQLiteCpp/Statement.h>
#include <deque>
#include <fmt/format.h>
#include <mutex>
#include <sqlite3.h>
#include <stdexcept>
#include <xxhash.h>

namespace hitmap::store {

namespace {

constexpr const char* kRowColumns = "id, struct, version, hash";

LayoutRow read_row(SQLite::Statement& q, int first) {
    return {q.getColumn(first).getInt64(), q.getColumn(first + 1).getString(),
            q.getColumn(first + 2).getString(), q.getColumn(first + 3).getString()};
}

std::vector<LayoutRow> read_rows(SQLite::Statement& q) {
    std::vector<LayoutRow> rows;
    while (q.executeStep())
        rows.push_back(read_row(q, 0));
    return rows;
}

void sql_layout_hash(sqlite3_context* context, int, sqlite3_value** argv) {
    const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
    if (!text) {
        sqlite3_result_null(context);
        return;
    }
    const std::string hash =
        layout_hash({text, static_cast<std::size_t>(sqlite3_value_bytes(argv[0]))});
    sqlite3_result_text(context, hash.data(), static_cast<int>(hash.size()), SQLITE_TRANSIENT);
}

// A struct this hitmap does not model (a plugin's, stored by a run that loaded it), as the
// database names its fields. Interned: layouts point at their type, and readers run on several
// threads (the GUI's jobs).
const engine::StructType* stored_struct_type(engine::StructType type) {
    static std::mutex mutex;
    static std::deque<engine::StructType> types;
    const std::lock_guard lock(mutex);
    for (const engine::StructType& t : types)
        if (t.name == type.name && t.fields == type.fields)
            return &t;
    return &types.emplace_back(std::move(type));
}

} // namespace

std::string layout_signature(const engine::Layout& l) {
    std::string sig = fmt::format("{}:{}:{}", l.type->name, l.size, l.align);
    for (engine::FieldId f = 0; f < l.placement.size(); ++f)
        if (l.has(f))
            sig += fmt::format(";{}@{}+{}", l.type->fields[f], l.at(f).offset, l.at(f).size);
    return sig;
}

std::string layout_hash(std::string_view signature) {
    return fmt::format("{:016x}", XXH3_64bits(signature.data(), signature.size()))
        .substr(0, kLayoutHashDigits);
}

void register_layout_hash(SQLite::Database& sql) {
    sql.createFunction("hitmap_layout_hash", 1, true, nullptr, sql_layout_hash);
}

std::int64_t upsert_layout(SQLite::Database& sql, const engine::Layout& l) {
    const std::string sig = layout_signature(l);
    SQLite::Statement find(sql, "SELECT id FROM layout WHERE signature = ?");
    find.bind(1, sig);
    if (find.executeStep())
        return find.getColumn(0).getInt64();
    SQLite::Statement ins(sql, "INSERT INTO layout (struct, version, size, align, signature, "
                               "hash) VALUES (?, ?, ?, ?, ?, ?)");
    ins.bind(1, l.type->name);
    ins.bind(2, l.version);
    ins.bind(3, static_cast<std::int64_t>(l.size));
    ins.bind(4, static_cast<std::int64_t>(l.align));
    ins.bind(5, sig);
    ins.bind(6, layout_hash(sig));
    ins.exec();
    const std::int64_t id = sql.getLastInsertRowid();
    SQLite::Statement field(sql, "INSERT INTO layout_field (layout_id, field_id, name, offset, "
                                 "size) VALUES (?, ?, ?, ?, ?)");
    for (engine::FieldId f = 0; f < l.placement.size(); ++f) {
        if (!l.has(f))
            continue;
        field.bind(1, id);
        field.bind(2, static_cast<int>(f));
        field.bind(3, l.type->fields[f]);
        field.bind(4, static_cast<std::int64_t>(l.at(f).offset));
        field.bind(5, static_cast<std::int64_t>(l.at(f).size));
        field.exec();
        field.reset();
    }
    return id;
}

engine::Layout read_layout(Database& db, std::int64_t layout_id) {
    SQLite::Database& sql = sql_connection(db);
    SQLite::Statement head(sql, "SELECT struct, version, size, align FROM layout WHERE id = ?");
    head.bind(1, layout_id);
    if (!head.executeStep())
        throw std::runtime_error(fmt::format("layout {} is missing from the database", layout_id));
    const std::string struct_name = head.getColumn(0).getString();
    struct Row {
        std::size_t id;
        std::string name;
        engine::FieldPlacement place;
    };
    std::vector<Row> rows;
    SQLite::Statement fields(
        sql, "SELECT field_id, name, offset, size FROM layout_field WHERE layout_id = ?");
    fields.bind(1, layout_id);
    while (fields.executeStep())
        rows.push_back(
            {static_cast<std::size_t>(fields.getColumn(0).getInt()),
             fields.getColumn(1).getString(),
             engine::FieldPlacement{static_cast<std::uint32_t>(fields.getColumn(2).getInt64()),
                                    static_cast<std::uint32_t>(fields.getColumn(3).getInt64())}});
    const engine::StructType* type = engine::find_struct_type(struct_name);
    if (type) {
        // By name: a stored id is the id of the build that stored it.
        for (Row& r : rows) {
            const auto id = type->field_id(r.name);
            if (!id)
                throw std::runtime_error(fmt::format("layout {} places field {}, which struct {} "
                                                     "of this build does not have",
                                                     layout_id, r.name, struct_name));
            r.id = *id;
        }
    } else {
        engine::StructType stored{struct_name, {}};
        for (const Row& r : rows) {
            if (r.id >= 256) // FieldId is 8 bits
                throw std::runtime_error(
                    fmt::format("layout {} has field id {} beyond any struct", layout_id, r.id));
            if (stored.fields.size() <= r.id)
                stored.fields.resize(r.id + 1);
            stored.fields[r.id] = r.name;
        }
        type = stored_struct_type(std::move(stored));
    }
    engine::Layout l{type,
                     head.getColumn(1).getString(),
                     static_cast<std::uint32_t>(head.getColumn(2).getInt64()),
                     static_cast<std::uint32_t>(head.getColumn(3).getInt64()),
                     {}};
    l.placement.resize(type->fields.size());
    for (const Row& r : rows)
        l.placement[r.id] = r.place;
    return l;
}

std::vector<RunLayout> run_layouts(Database& db, std::optional<std::int64_t> run) {
    SQLite::Statement q(
        sql_connection(db),
        fmt::format("SELECT DISTINCT o.run_id, o.layout_origin, l.id, l.struct, l.version, l.hash "
                    "FROM object o JOIN layout l ON l.id = o.layout_id {} "
                    "ORDER BY o.run_id, l.struct, l.hash, o.layout_origin",
                    run ? "WHERE o.run_id = ?" : ""));
    if (run)
        q.bind(1, *run);
    std::vector<RunLayout> out;
    while (q.executeStep())
        out.push_back(
            {q.getColumn(0).getInt64(), read_row(q, 2),
             q.getColumn(1).isNull() ? std::nullopt : std::optional(q.getColumn(1).getString())});
    return out;
}

std::vector<LayoutRow> layouts_with_hash_prefix(Database& db, std::string_view prefix) {
    // Nothing GLOB would read as a pattern.
    if (prefix.find_first_not_of("0123456789abcdef") != std::string_view::npos)
        throw std::invalid_argument(fmt::format("'{}' is not lower-case hex digits", prefix));
    SQLite::Statement q(
        sql_connection(db),
        fmt::format("SELECT {} FROM layout WHERE hash GLOB ? ORDER BY hash, id", kRowColumns));
    q.bind(1, std::string(prefix) + "*");
    return read_rows(q);
}

std::vector<LayoutRow> layouts_named(Database& db, std::string_view struct_name,
                                     std::string_view version) {
    SQLite::Statement q(
        sql_connection(db),
        fmt::format("SELECT {} FROM layout WHERE struct = ? AND version = ? ORDER BY id",
                    kRowColumns));
    q.bind(1, std::string(struct_name));
    q.bind(2, std::string(version));
    return read_rows(q);
}

std::vector<LayoutRow> stored_layouts(Database& db) {
    SQLite::Statement q(sql_connection(db),
                        fmt::format("SELECT {} FROM layout ORDER BY id", kRowColumns));
    return read_rows(q);
}

std::string layout_label(const LayoutRow& row) {
    return fmt::format("{}@{}#{}", row.struct_name, row.version, row.hash);
}

} // namespace hitmap::store
