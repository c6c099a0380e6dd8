#include "collector/store/lock_tables.hpp"

#include "collector/store/database.hpp"
#include "collector/store/errors.hpp"
#include "collector/store/run_writer.hpp"
#include "collector/store/sql_connection.hpp"
#include "collector/store/sql_text.hpp"
#include "collector/support/enum_names.hpp"

#include <SQLiteCpp/SQLiteCpp.h>
#include <array>
#include <charconv>
#include <fmt/format.h>
#include <limits>
#include <nlohmann/json.hpp>
#include <type_traits>
#include <utility>

namespace hitmap::store {

namespace {

constexpr const char* kIdentityColumns =
    "class_position, name, name_version, subclass, key, class_format, lock_type, pid, "
    "lock_address, side";
constexpr const char* kCounterColumns =
    "con_bounces, contentions, wait_min_ns, wait_max_ns, wait_total_ns, wait_avg_ns, "
    "acq_bounces, acquisitions, hold_min_ns, hold_max_ns, hold_total_ns, hold_avg_ns";
constexpr int kIdentityColumnCount = 10;
constexpr int kCounterColumnCount = 12;

constexpr std::array<support::EnumName<LockSource>, 4> kSourceNames{{
    {LockSource::engine, "engine"},
    {LockSource::kernel, "kernel"},
    {LockSource::lockstat, "lockstat"},
    {LockSource::perf_lock, "perf-lock"},
}};

std::optional<LockSource> lock_source_named(std::string_view name) {
    return support::value_named(kSourceNames, name);
}

// --- writing ------------------------------------------------------------------------------

std::int64_t to_sql(std::uint64_t value, std::string_view what) {
    if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        throw LockValueOutOfRange(
            fmt::format("{} {} does not fit the store's signed 64-bit integers", what, value));
    return static_cast<std::int64_t>(value);
}

// Kernel addresses are above 2^63: kept as text rather than as a negative integer.
std::string address_text(std::uint64_t address) {
    return fmt::format("{:#x}", address);
}

class Binder {
public:
    explicit Binder(SQLite::Statement& st)
        : st_(st) {}

    Binder& text(const std::string& v) { return st_.bind(next_++, v), *this; }
    Binder& integer(std::int64_t v) { return st_.bind(next_++, v), *this; }
    Binder& null() { return st_.bind(next_++), *this; }
    Binder& count(std::uint64_t v, std::string_view what) { return integer(to_sql(v, what)); }

    template <class T> Binder& optional(const std::optional<T>& v) {
        if (!v)
            return null();
        if constexpr (std::is_same_v<T, std::string>)
            return text(*v);
        else if constexpr (std::is_same_v<T, std::uint64_t>)
            return count(*v, "lock counter");
        else
            return integer(static_cast<std::int64_t>(*v));
    }
    Binder& optional_address(const std::optional<std::uint64_t>& v) {
        return v ? text(address_text(*v)) : null();
    }

private:
    SQLite::Statement& st_;
    int next_ = 1;
};

void bind_times(Binder& b, const locks::LockTimes& t) {
    b.optional(t.min_ns).optional(t.max_ns).optional(t.total_ns).optional(t.avg_ns);
}

void bind_counters(Binder& b, const locks::LockCounters* c) {
    if (!c) {
        for (int i = 0; i < kCounterColumnCount; ++i)
            b.null();
        return;
    }
    b.optional(c->con_bounces).optional(c->contentions);
    bind_times(b, c->wait);
    b.optional(c->acq_bounces).optional(c->acquisitions);
    bind_times(b, c->hold);
}

std::int64_t insert_table(SQLite::Database& sql, std::int64_t run_id, const LockData& data) {
    SQLite::Statement next(
        sql, "SELECT coalesce(max(position) + 1, 0) FROM lock_table WHERE run_id = ?");
    next.bind(1, run_id);
    next.executeStep();
    const locks::LockStatReport& r = data.report;
    SQLite::Statement st(sql, "INSERT INTO lock_table (run_id, position, source, format, version, "
                              "caption, has_header, lockdep_disabled, excerpt, notes_json) "
                              "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    Binder(st)
        .integer(run_id)
        .integer(next.getColumn(0).getInt64())
        .text(std::string(to_string(data.source)))
        .text(std::string(locks::to_string(r.format)))
        .text(r.version)
        .optional(r.caption)
        .integer(r.has_header)
        .integer(r.lockdep_disabled)
        .integer(r.excerpt)
        .text(nlohmann::json(r.notes).dump());
    st.exec();
    return sql.getLastInsertRowid();
}

void insert_class(SQLite::Statement& st, std::int64_t table_id, std::int64_t run_id,
                  std::int64_t position, const locks::LockClassStats& c) {
    // side null: the class is listed without statistics, which must read back as such.
    const auto insert = [&](const char* side, const locks::LockCounters* counters) {
        Binder b(st);
        b.integer(table_id).integer(run_id).integer(position).text(c.name);
        b.optional(c.name_version).optional(c.subclass);
        b.text(std::string(locks::to_string(c.key))).text(std::string(locks::to_string(c.source)));
        b.optional(c.lock_type).optional(c.pid).optional_address(c.lock_address);
        if (side)
            b.text(side);
        else
            b.null();
        bind_counters(b, counters);
        st.exec();
        st.reset();
    };
    if (c.write)
        insert("write", &*c.write);
    if (c.read)
        insert("read", &*c.read);
    if (!c.write && !c.read)
        insert(nullptr, nullptr);
}

void insert_points(SQLite::Statement& st, std::int64_t table_id, std::int64_t position,
                   const locks::LockClassStats& c) {
    const std::pair<const char*, const std::vector<locks::LockPoint>*> lists[] = {
        {"contention", &c.contention_points}, {"contending", &c.contending_points}};
    for (const auto& [kind, points] : lists)
        for (std::size_t i = 0; i < points->size(); ++i) {
            const locks::LockPoint& p = (*points)[i];
            Binder(st)
                .integer(table_id)
                .integer(position)
                .text(kind)
                .integer(static_cast<std::int64_t>(i))
                .count(p.count, "lock point count")
                .optional_address(p.address)
                .text(p.symbol);
            st.exec();
            st.reset();
        }
    for (std::size_t i = 0; i < c.stack.size(); ++i) {
        Binder(st)
            .integer(table_id)
            .integer(position)
            .text("stack")
            .integer(static_cast<std::int64_t>(i))
            .null()
            .text(address_text(c.stack[i].address))
            .text(c.stack[i].symbol);
        st.exec();
        st.reset();
    }
}

void insert_histograms(SQLite::Database& sql, std::int64_t table_id, const LockData& data) {
    SQLite::Statement st(
        sql, "INSERT INTO lock_wait_hist (table_id, class_name, log2, count) VALUES (?, ?, ?, ?)");
    for (const auto& [name, hist] : data.histograms)
        for (std::size_t i = 0; i < hist.counts.size(); ++i) {
            if (hist.counts[i] == 0)
                continue;
            Binder(st)
                .integer(table_id)
                .text(name)
                .integer(static_cast<std::int64_t>(i))
                .count(hist.counts[i], "wait histogram count");
            st.exec();
            st.reset();
        }
}

// --- reading ------------------------------------------------------------------------------

class Reader {
public:
    Reader(SQLite::Database& sql, SQLite::Statement& st, int first)
        : sql_(sql)
        , st_(st)
        , next_(first) {}

    bool is_null() const { return st_.getColumn(next_).isNull(); }
    std::string text() { return st_.getColumn(next_++).getString(); }
    std::int64_t integer() { return st_.getColumn(next_++).getInt64(); }
    std::uint64_t count() {
        const std::int64_t v = integer();
        if (v < 0)
            corrupt(fmt::format("negative count {}", v));
        return static_cast<std::uint64_t>(v);
    }
    std::uint64_t address() {
        const std::string t = text();
        std::uint64_t v = 0;
        const char* begin = t.data() + std::min<std::size_t>(2, t.size());
        const auto [end, ec] = std::from_chars(begin, t.data() + t.size(), v, 16);
        if (!t.starts_with("0x") || ec != std::errc() || end != t.data() + t.size())
            corrupt(fmt::format("malformed address '{}'", t));
        return v;
    }
    template <class T> std::optional<T> optional() {
        if (is_null())
            return (++next_, std::nullopt);
        if constexpr (std::is_same_v<T, std::string>)
            return text();
        else if constexpr (std::is_same_v<T, std::uint64_t>)
            return count();
        else
            return static_cast<T>(integer());
    }
    std::optional<std::uint64_t> optional_address() {
        if (is_null())
            return (++next_, std::nullopt);
        return address();
    }
    // The enum value a column's text names, through `lookup` (text -> optional value).
    template <class Lookup> auto named(Lookup lookup, std::string_view what) {
        const std::string t = text();
        if (const auto value = lookup(t))
            return *value;
        corrupt(fmt::format("unknown {} '{}'", what, t));
    }

    [[noreturn]] void corrupt(const std::string& detail) const {
        throw CorruptDatabase(sql_.getFilename(), fmt::format("lock tables: {}", detail));
    }

private:
    SQLite::Database& sql_;
    SQLite::Statement& st_;
    int next_;
};

locks::LockTimes read_times(Reader& r) {
    locks::LockTimes t;
    t.min_ns = r.optional<std::int64_t>();
    t.max_ns = r.optional<std::int64_t>();
    t.total_ns = r.optional<std::int64_t>();
    t.avg_ns = r.optional<std::int64_t>();
    return t;
}

locks::LockCounters read_counters(Reader& r) {
    locks::LockCounters c;
    c.con_bounces = r.optional<std::uint64_t>();
    c.contentions = r.optional<std::uint64_t>();
    c.wait = read_times(r);
    c.acq_bounces = r.optional<std::uint64_t>();
    c.acquisitions = r.optional<std::uint64_t>();
    c.hold = read_times(r);
    return c;
}

// How ClassCursor and PointCursor join and sort for an order; both must agree, since their rows
// are merged by class. (total(): a sum of two counts may not fit SQLite's integers.)
std::string order_join(LockClassOrder order) {
    return order == LockClassOrder::written
               ? ""
               : "JOIN (SELECT class_position AS ranked, total(contentions) AS contentions_sum "
                 "FROM lock_class_stat WHERE table_id = ?1 GROUP BY class_position) "
                 "ON ranked = class_position";
}

std::string order_key(LockClassOrder order) {
    return order == LockClassOrder::written ? "" : "contentions_sum DESC,";
}

// A table's classes one at a time: a class is one row per side.
class ClassCursor {
public:
    ClassCursor(SQLite::Database& sql, std::int64_t table_id, LockClassOrder order)
        : sql_(sql)
        , st_(sql,
              fmt::format("SELECT {}, {} FROM lock_class_stat {} WHERE table_id = ?1 "
                          "ORDER BY {} class_position, side DESC",
                          kIdentityColumns, kCounterColumns, order_join(order), order_key(order))) {
        st_.bind(1, table_id);
        has_row_ = st_.executeStep();
    }

    std::optional<locks::LockClassStats> next() {
        if (!has_row_)
            return std::nullopt;
        locks::LockClassStats c;
        Reader r(sql_, st_, 0);
        position_ = r.integer();
        c.name = r.text();
        c.name_version = r.optional<unsigned>();
        c.subclass = r.optional<unsigned>();
        c.key = r.named(locks::lock_key_named, "lock key");
        c.source = r.named(locks::lock_format_named, "lock format");
        c.lock_type = r.optional<std::string>();
        c.pid = r.optional<std::int64_t>();
        c.lock_address = r.optional_address();
        do {
            Reader sides(sql_, st_, kIdentityColumnCount - 1);
            const std::optional<std::string> side = sides.optional<std::string>();
            if (side)
                (*side == "read" ? c.read : c.write) = read_counters(sides);
            has_row_ = st_.executeStep();
        } while (has_row_ && st_.getColumn(0).getInt64() == position_);
        ++count_;
        return c;
    }

    std::int64_t position() const { return position_; }
    std::int64_t count() const { return count_; }

private:
    SQLite::Database& sql_;
    SQLite::Statement st_;
    bool has_row_ = false;
    std::int64_t position_ = -1;
    std::int64_t count_ = 0;
};

// The points of a table, read alongside ClassCursor: both go in class position order. Class
// positions are 0, 1, 2... as written.
class PointCursor {
public:
    PointCursor(SQLite::Database& sql, std::int64_t table_id, LockClassOrder order)
        : sql_(sql)
        , st_(sql, fmt::format("SELECT class_position, kind, count, address, symbol FROM "
                               "lock_point {} WHERE table_id = ?1 ORDER BY {} class_position, "
                               "kind, position",
                               order_join(order), order_key(order))) {
        st_.bind(1, table_id);
        has_row_ = st_.executeStep();
    }

    // A point of a class that has no row stops the cursor, and check_consumed() then says so.
    void add_to(std::int64_t position, locks::LockClassStats& c) {
        for (; has_row_ && st_.getColumn(0).getInt64() == position; has_row_ = st_.executeStep()) {
            Reader r(sql_, st_, 1);
            const std::string kind = r.text();
            if (kind == "stack") {
                r.optional<std::uint64_t>(); // frames have no count
                const std::uint64_t address = r.address();
                c.stack.push_back({address, r.text()});
                continue;
            }
            locks::LockPoint p;
            p.count = r.count();
            p.address = r.optional_address();
            p.symbol = r.text();
            (kind == "contending" ? c.contending_points : c.contention_points).push_back(p);
        }
    }

    void check_consumed(std::int64_t classes) const {
        if (has_row_)
            Reader(sql_, st_, 0)
                .corrupt(fmt::format("a lock point names class {} of {}",
                                     st_.getColumn(0).getInt64(), classes));
    }

private:
    SQLite::Database& sql_;
    mutable SQLite::Statement st_;
    bool has_row_ = false;
};

std::map<std::string, locks::WaitHistogram> read_histograms(SQLite::Database& sql,
                                                            std::int64_t table_id) {
    SQLite::Statement st(sql,
                         "SELECT class_name, log2, count FROM lock_wait_hist WHERE table_id = ?");
    st.bind(1, table_id);
    std::map<std::string, locks::WaitHistogram> histograms;
    while (st.executeStep()) {
        Reader r(sql, st, 0);
        locks::WaitHistogram& h = histograms[r.text()];
        const std::uint64_t bucket = r.count();
        if (bucket >= locks::WaitHistogram::kBuckets)
            r.corrupt(fmt::format("wait histogram bucket {}", bucket));
        h.counts[bucket] = r.count();
    }
    return histograms;
}

} // namespace

std::string_view to_string(LockSource source) {
    return support::name_of(kSourceNames, source);
}

struct LockTableWriter::Rows {
    Rows(SQLite::Database& sql, std::int64_t run_id, LockSource source,
         const locks::LockStatReport& table)
        : sql(sql)
        , run_id(run_id)
        , table_id(insert_table(sql, run_id, {source, table, {}}))
        , classes(sql, fmt::format("INSERT INTO lock_class_stat (table_id, run_id, {}, {}) "
                                   "VALUES ({})",
                                   kIdentityColumns, kCounterColumns,
                                   placeholders(2 + kIdentityColumnCount + kCounterColumnCount)))
        , points(sql, "INSERT INTO lock_point (table_id, class_position, kind, position, count, "
                      "address, symbol) VALUES (?, ?, ?, ?, ?, ?, ?)") {}

    SQLite::Database& sql;
    std::int64_t run_id;
    std::int64_t table_id;
    SQLite::Statement classes;
    SQLite::Statement points;
    std::int64_t next_position = 0;
};

LockTableWriter::LockTableWriter(Database& db, std::int64_t run_id, LockSource source,
                                 const locks::LockStatReport& table)
    : rows_(std::make_unique<Rows>(sql_connection(db), run_id, source, table)) {}

LockTableWriter::LockTableWriter(LockTableWriter&&) noexcept = default;
LockTableWriter& LockTableWriter::operator=(LockTableWriter&&) noexcept = default;
LockTableWriter::~LockTableWriter() = default;

void LockTableWriter::add_class(const locks::LockClassStats& stats) {
    insert_class(rows_->classes, rows_->table_id, rows_->run_id, rows_->next_position, stats);
    insert_points(rows_->points, rows_->table_id, rows_->next_position, stats);
    ++rows_->next_position;
}

void LockTableWriter::finish(const locks::LockStatReport& table) {
    SQLite::Statement st(rows_->sql,
                         "UPDATE lock_table SET version = ?, caption = ?, has_header = ?, "
                         "lockdep_disabled = ?, excerpt = ?, notes_json = ? WHERE id = ?");
    Binder(st)
        .text(table.version)
        .optional(table.caption)
        .integer(table.has_header)
        .integer(table.lockdep_disabled)
        .integer(table.excerpt)
        .text(nlohmann::json(table.notes).dump())
        .integer(rows_->table_id);
    st.exec();
}

LockTableWriter RunWriter::begin_lock_table(LockSource source, const locks::LockStatReport& table) {
    return LockTableWriter(db_, run_id_, source, table);
}

void RunWriter::write(const LockData& data) {
    LockTableWriter writer = begin_lock_table(data.source, data.report);
    for (const auto& stats : data.report.classes)
        writer.add_class(stats);
    insert_histograms(sql_connection(db_), writer.rows_->table_id, data);
}

std::vector<StoredLockTable> read_lock_table_headers(Database& db, std::int64_t run_id) {
    SQLite::Database& sql = sql_connection(db);
    SQLite::Statement st(sql, "SELECT id, source, format, version, caption, has_header, "
                              "lockdep_disabled, excerpt, notes_json FROM lock_table "
                              "WHERE run_id = ? ORDER BY position");
    st.bind(1, run_id);
    std::vector<StoredLockTable> tables;
    while (st.executeStep()) {
        Reader r(sql, st, 0);
        StoredLockTable& t = tables.emplace_back();
        t.id = r.integer();
        LockData& d = t.data;
        d.source = r.named(lock_source_named, "lock source");
        locks::LockStatReport& rep = d.report;
        rep.format = r.named(locks::lock_format_named, "lock format");
        rep.version = r.text();
        rep.caption = r.optional<std::string>();
        rep.has_header = r.integer() != 0;
        rep.lockdep_disabled = r.integer() != 0;
        rep.excerpt = r.integer() != 0;
        rep.notes = nlohmann::json::parse(r.text()).get<std::vector<std::string>>();
        d.histograms = read_histograms(sql, t.id);
    }
    return tables;
}

void for_each_lock_class(Database& db, std::int64_t table_id,
                         const std::function<void(const locks::LockClassStats&)>& visit,
                         LockClassOrder order) {
    SQLite::Database& sql = sql_connection(db);
    ClassCursor classes(sql, table_id, order);
    PointCursor points(sql, table_id, order);
    while (auto stats = classes.next()) {
        points.add_to(classes.position(), *stats);
        visit(*stats);
    }
    points.check_consumed(classes.count());
}

std::vector<LockData> read_lock_tables(Database& db, std::int64_t run_id) {
    std::vector<LockData> tables;
    for (auto& t : read_lock_table_headers(db, run_id)) {
        LockData& d = tables.emplace_back(std::move(t.data));
        for_each_lock_class(db, t.id,
                            [&](const locks::LockClassStats& c) { d.report.classes.push_back(c); });
    }
    return tables;
}

} // namespace hitmap::store
