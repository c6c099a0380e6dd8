#pragma once
// Plain values for lock statistics, whatever text they came from: /proc/lock_stat (v0.3, v0.4),
// perf lock contention (table or CSV) and perf lock report. A field a source does not print is
// an empty std::optional, never a zero.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::locks {

enum class LockFormat {
    lockstat_v03,
    lockstat_v04,
    perf_lock_contention,
    perf_lock_contention_csv,
    perf_lock_report,
    mutrace,
    illumos_lockstat,
    unknown,
};

std::string_view to_string(LockFormat format);
// The format `name` (to_string's) names; nullopt for any other text.
std::optional<LockFormat> lock_format_named(std::string_view name);

// What a row's name stands for; each tool aggregates by a different key.
enum class LockKey {
    lock_class,   // lock_stat: a lockdep class ("&rq->lock/1")
    lock_name,    // perf lock report "Name": a lock instance, a name with -c, or a comm with -t
    caller,       // perf lock contention (default): the waiter's caller, "pipe_read+0x56"
    task,         // perf lock contention -t: the waiting (or, with -o, owning) task's comm
    lock_address, // perf lock contention -l: the lock instance; name is its symbol
    cgroup,       // perf lock contention --lock-cgroup: the cgroup path
};

std::string_view to_string(LockKey key);
std::optional<LockKey> lock_key_named(std::string_view name);

// One lockdep `struct lock_time` minus the count, in nanoseconds. lock_stat prints times in
// microseconds with two decimals, so parsed values have 10 ns resolution.
struct LockTimes {
    std::optional<std::int64_t> min_ns;
    std::optional<std::int64_t> max_ns;
    std::optional<std::int64_t> total_ns;
    // As printed by the source; when it prints none, lock_stat parsing computes it the kernel's
    // way (count ? total / count : 0).
    std::optional<std::int64_t> avg_ns;

    bool operator==(const LockTimes&) const = default;
};

// One printed lock_stat row: the whole class, or its -W or -R half.
struct LockCounters {
    std::optional<std::uint64_t>
        con_bounces; // contentions where the lock was last taken on another CPU
    std::optional<std::uint64_t> contentions; // waits (lockdep: the first trylock failed)
    LockTimes wait;
    std::optional<std::uint64_t> acq_bounces;  // acquisitions following another CPU's
    std::optional<std::uint64_t> acquisitions; // completed hold intervals
    LockTimes hold;

    bool operator==(const LockCounters&) const = default;
};

// A contention point (where a waiter was) or contending point (where the holder took the lock):
// `[<ffffffff8103bfc4>] task_rq_lock+0x43/0x75`.
struct LockPoint {
    std::uint64_t count = 0;
    // Absent when the kernel hid the pointer; printed back as "(____ptrval____)", the kernel's
    // own spelling. Since v4.15 the value is a per-boot hash, so only `symbol` is a stable key.
    std::optional<std::uint64_t> address;
    std::string symbol; // %pS text: "symbol+0xoff/0xsize", or a raw address when unresolved

    bool operator==(const LockPoint&) const = default;
};

// One frame of a perf lock contention -v call stack.
struct StackFrame {
    std::uint64_t address = 0;
    std::string symbol; // "symbol+0xoff"

    bool operator==(const StackFrame&) const = default;
};

struct LockClassStats {
    // As printed: lock_stat names keep their "#N" and "/N" suffixes (without -W/-R); perf names
    // are the key column (caller, comm, symbol or, for an unnamed instance, its hex address).
    std::string name;
    std::optional<unsigned> name_version; // lock_stat "#N": several classes share the name
    std::optional<unsigned> subclass;     // lock_stat "/N": lockdep nesting subclass
    LockKey key = LockKey::lock_class;
    std::optional<std::string> lock_type;      // perf: "spinlock", "rwsem:R", "mutex", ...
    std::optional<std::int64_t> pid;           // perf -t (-1 when the owner was unknown)
    std::optional<std::uint64_t> lock_address; // perf -l

    // lockdep splits statistics by hlock->read. `write` is the exclusive or write side: the
    // bare "name:" row (a class never held for reading) or the "name-W:" row; `read` is the
    // "name-R:" row. lock_stat prints a side only when it has holds. perf rows go to `read` for
    // ":R" lock types and to `write` otherwise (sources without a split use `write`).
    std::optional<LockCounters> write;
    std::optional<LockCounters> read;

    std::vector<LockPoint> contention_points; // lock_stat: the first 4 sites seen, not the top 4
    std::vector<LockPoint> contending_points;
    std::vector<StackFrame> stack; // perf lock contention -v

    LockFormat source = LockFormat::unknown;

    // write + read contentions (absent counts as 0): the kernel's sort key.
    std::uint64_t total_contentions() const;

    bool operator==(const LockClassStats&) const = default;
};

// One table: a /proc/lock_stat snapshot, or one perf lock output. A text may hold several
// (a mail with before/after tables); parsers return them in text order.
struct LockStatReport {
    LockFormat format = LockFormat::unknown;
    std::string version; // "0.3" or "0.4" for lock_stat (from the version line, else the columns)
    std::optional<std::string> caption; // nearest prose line above the table ("clamd:", a command)
    bool has_header = false;            // the column-title line was present
    bool lockdep_disabled = false; // "*WARNING* lock debugging disabled!!" (stats may be stale)
    bool excerpt = false;          // rows were elided ("..." or "[...]")
    // Values not taken at face value, one line each with its line number: kernel formatting
    // artefacts (truncated or negative times) stored as absent.
    std::vector<std::string> notes;
    std::vector<LockClassStats> classes;

    bool operator==(const LockStatReport&) const = default;
};

// Receives the tables of a text as a parser reads them, so that a large text is never held as
// values: a class is handed over once it is complete (a perf -v row after its call stack).
class LockTableSink {
public:
    virtual ~LockTableSink() = default;
    // `table` holds what the table's header told (format, version, caption); no classes.
    virtual void begin_table(const LockStatReport& table) = 0;
    virtual void add_class(LockClassStats&& stats) = 0;
    // `table` holds the table's final fields (excerpt, notes...); no classes.
    virtual void end_table(const LockStatReport& table) = 0;
};

// Keeps every table whole: what the parse functions returning vectors use.
class CollectingSink : public LockTableSink {
public:
    void begin_table(const LockStatReport& table) override;
    void add_class(LockClassStats&& stats) override;
    void end_table(const LockStatReport& table) override;

    std::vector<LockStatReport> reports;
};

// Hands each of `reports` to `sink` as a parser would.
void replay(std::vector<LockStatReport> reports, LockTableSink& sink);

} // namespace hitmap::locks
