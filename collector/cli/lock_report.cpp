#include "collector/cli/lock_report.hpp"

#include "collector/locks/lockstat_printer.hpp"
#include "collector/report/output_text.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <fmt/format.h>
#include <functional>

namespace hitmap::cli {

namespace {

template <class T> nlohmann::json or_null(const std::optional<T>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json();
}

nlohmann::json address_json(const std::optional<std::uint64_t>& address) {
    return address ? nlohmann::json(fmt::format("{:#x}", *address)) : nlohmann::json();
}

nlohmann::json counters_json(const std::optional<locks::LockCounters>& c) {
    if (!c)
        return nullptr;
    return {
        {"con_bounces", or_null(c->con_bounces)},     {"contentions", or_null(c->contentions)},
        {"wait_min_ns", or_null(c->wait.min_ns)},     {"wait_max_ns", or_null(c->wait.max_ns)},
        {"wait_total_ns", or_null(c->wait.total_ns)}, {"wait_avg_ns", or_null(c->wait.avg_ns)},
        {"acq_bounces", or_null(c->acq_bounces)},     {"acquisitions", or_null(c->acquisitions)},
        {"hold_min_ns", or_null(c->hold.min_ns)},     {"hold_max_ns", or_null(c->hold.max_ns)},
        {"hold_total_ns", or_null(c->hold.total_ns)}, {"hold_avg_ns", or_null(c->hold.avg_ns)}};
}

nlohmann::json points_json(const std::vector<locks::LockPoint>& points) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& p : points)
        j.push_back(
            {{"count", p.count}, {"address", address_json(p.address)}, {"symbol", p.symbol}});
    return j;
}

nlohmann::json class_json(const locks::LockClassStats& c) {
    nlohmann::json stack = nlohmann::json::array();
    for (const auto& f : c.stack)
        stack.push_back({{"address", address_json(f.address)}, {"symbol", f.symbol}});
    return {{"name", c.name},
            {"name_version", or_null(c.name_version)},
            {"subclass", or_null(c.subclass)},
            {"key", locks::to_string(c.key)},
            {"format", locks::to_string(c.source)},
            {"lock_type", or_null(c.lock_type)},
            {"pid", or_null(c.pid)},
            {"lock_address", address_json(c.lock_address)},
            {"write", counters_json(c.write)},
            {"read", counters_json(c.read)},
            {"contention_points", points_json(c.contention_points)},
            {"contending_points", points_json(c.contending_points)},
            {"stack", std::move(stack)}};
}

// The printer writes names and symbols as stored; a database written before imports refused
// control characters may hold some, which must not reach the terminal raw. Copied only then.
bool needs_escaping(const locks::LockClassStats& c) {
    const auto points = [](const std::vector<locks::LockPoint>& list) {
        return std::any_of(list.begin(), list.end(),
                           [](const auto& p) { return report::has_control(p.symbol); });
    };
    return report::has_control(c.name) || points(c.contention_points) ||
           points(c.contending_points);
}

locks::LockClassStats escaped(locks::LockClassStats c) {
    c.name = report::escape_control(c.name);
    for (auto* list : {&c.contention_points, &c.contending_points})
        for (auto& p : *list)
            p.symbol = report::escape_control(p.symbol);
    return c;
}

void write(std::FILE* out, std::string_view text) {
    std::fwrite(text.data(), 1, text.size(), out);
}

// Writes JSON laid out as nlohmann's dump(2), but a member or an element at a time, so that a
// table of any size is never held as one json value.
class JsonStream {
public:
    explicit JsonStream(std::FILE* out)
        : out_(out) {}

    // A value whose first line goes where the cursor is, nested `depth` levels deep.
    void value(const nlohmann::json& v, int depth) {
        const std::string text = report::json_text(v);
        // Only dump's own line breaks: strings cannot hold a raw one.
        std::size_t from = 0;
        for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1) {
            write(std::string_view(text).substr(from, nl + 1 - from));
            indent(depth);
        }
        write(std::string_view(text).substr(from));
    }

    // An object of `fixed`'s members and `key`, whose value `streamed` writes, in dump's key
    // order.
    void object(const nlohmann::json& fixed, const std::string& key,
                const std::function<void(int depth)>& streamed, int depth) {
        write("{\n");
        bool placed = false;
        bool first = true;
        const auto member = [&](const std::string& name) {
            write(first ? "" : ",\n");
            first = false;
            indent(depth + 1);
            value(nlohmann::json(name), depth + 1);
            write(": ");
        };
        for (const auto& [name, v] : fixed.items()) {
            if (!placed && key < name) {
                member(key);
                streamed(depth + 1);
                placed = true;
            }
            member(name);
            value(v, depth + 1);
        }
        if (!placed) {
            member(key);
            streamed(depth + 1);
        }
        write("\n");
        indent(depth);
        write("}");
    }

    // An array whose elements `each` produces, calling the given function before each one.
    void array(const std::function<void(const std::function<int()>& next)>& each, int depth) {
        bool empty = true;
        each([&] {
            write(empty ? "[\n" : ",\n");
            empty = false;
            indent(depth + 1);
            return depth + 1;
        });
        if (empty)
            return write("[]");
        write("\n");
        indent(depth);
        write("]");
    }

private:
    void write(std::string_view text) { cli::write(out_, text); }
    void indent(int depth) {
        for (int i = 0; i < depth; ++i)
            write("  ");
    }

    std::FILE* out_;
};

nlohmann::json table_fields_json(const store::LockData& t) {
    const locks::LockStatReport& r = t.report;
    nlohmann::json histograms = nlohmann::json::object();
    for (const auto& [name, h] : t.histograms)
        histograms[name] = h.to_json();
    return {{"source", store::to_string(t.source)},
            {"format", locks::to_string(r.format)},
            {"version", r.version},
            {"caption", or_null(r.caption)},
            {"has_header", r.has_header},
            {"lockdep_disabled", r.lockdep_disabled},
            {"excerpt", r.excerpt},
            {"notes", r.notes},
            {"wait_histograms", std::move(histograms)}};
}

} // namespace

namespace {

// The lock_stat columns no class of the table has a value for, in lock_stat's order: one pass
// over the classes before they are printed, so the header can say what "-" means.
std::string unmeasured_columns(store::Database& db, std::int64_t table_id) {
    std::array<bool, 12> seen{};
    const auto mark = [&](const std::optional<locks::LockCounters>& c) {
        if (!c)
            return;
        const std::array<bool, 12> has{
            c->con_bounces.has_value(), c->contentions.has_value(),   c->wait.min_ns.has_value(),
            c->wait.max_ns.has_value(), c->wait.total_ns.has_value(), c->wait.avg_ns.has_value(),
            c->acq_bounces.has_value(), c->acquisitions.has_value(),  c->hold.min_ns.has_value(),
            c->hold.max_ns.has_value(), c->hold.total_ns.has_value(), c->hold.avg_ns.has_value()};
        for (std::size_t i = 0; i < has.size(); ++i)
            seen[i] = seen[i] || has[i];
    };
    bool any = false;
    store::for_each_lock_class(
        db, table_id,
        [&](const locks::LockClassStats& c) {
            any = true;
            mark(c.write);
            mark(c.read);
        },
        store::LockClassOrder::written);
    static constexpr std::array<const char*, 12> names{
        "con-bounces",    "contentions",  "waittime-min",   "waittime-max",
        "waittime-total", "waittime-avg", "acq-bounces",    "acquisitions",
        "holdtime-min",   "holdtime-max", "holdtime-total", "holdtime-avg"};
    std::string out;
    for (std::size_t i = 0; any && i < names.size(); ++i)
        if (!seen[i])
            out += fmt::format("{}{}", out.empty() ? "" : ", ", names[i]);
    return out;
}

} // namespace

void write_lock_report_text(std::FILE* out, store::Database& db, std::int64_t run_id) {
    bool first = true;
    for (const auto& [id, t] : store::read_lock_table_headers(db, run_id)) {
        const locks::LockStatReport& r = t.report;
        write(out,
              fmt::format("{}# source {} ({}{}{}){}{}", first ? "" : "\n",
                          store::to_string(t.source), locks::to_string(r.format),
                          r.version.empty() ? "" : " ", report::escape_control(r.version),
                          r.caption ? ": " : "", report::escape_control(r.caption.value_or(""))));
        first = false;
        if (!t.histograms.empty())
            write(out, fmt::format("; wait-time histograms of {} class{} in --json",
                                   t.histograms.size(), t.histograms.size() == 1 ? "" : "es"));
        write(out, "\n");
        if (const std::string absent = unmeasured_columns(db, id); !absent.empty())
            write(out, fmt::format("# not measured by this source, shown as -: {}\n", absent));
        write(out, locks::format_lock_stat_v04_header(r.lockdep_disabled));
        store::for_each_lock_class(
            db, id,
            [&](const locks::LockClassStats& c) {
                write(out, locks::format_lock_stat_v04_class(needs_escaping(c) ? escaped(c) : c));
            },
            store::LockClassOrder::by_contentions);
    }
}

void write_lock_report_json(std::FILE* out, store::Database& db, const nlohmann::json& fields,
                            std::int64_t run_id) {
    const std::vector<store::StoredLockTable> tables = store::read_lock_table_headers(db, run_id);
    JsonStream json(out);
    const auto table = [&](const store::StoredLockTable& t, int depth) {
        json.object(
            table_fields_json(t.data), "classes",
            [&](int d) {
                json.array(
                    [&](const std::function<int()>& next) {
                        store::for_each_lock_class(db, t.id, [&](const locks::LockClassStats& c) {
                            json.value(class_json(c), next());
                        });
                    },
                    d);
            },
            depth);
    };
    json.object(
        fields, "lock_tables",
        [&](int depth) {
            json.array(
                [&](const std::function<int()>& next) {
                    for (const auto& t : tables)
                        table(t, next());
                },
                depth);
        },
        0);
    std::fputc('\n', out);
}

} // namespace hitmap::cli
