#include "collector/cli/lock_report.hpp"

#include "collector/locks/lockstat_printer.hpp"

#include <fmt/format.h>

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

} // namespace

std::string format_lock_tables(const std::vector<store::LockData>& tables) {
    std::string out;
    for (const auto& t : tables) {
        const locks::LockStatReport& r = t.report;
        out += fmt::format("{}# source {} ({}{}{}){}{}", out.empty() ? "" : "\n",
                           store::to_string(t.source), locks::to_string(r.format),
                           r.version.empty() ? "" : " ", r.version, r.caption ? ": " : "",
                           r.caption.value_or(""));
        if (!t.histograms.empty())
            out += fmt::format("; wait-time histograms of {} class{} in --json",
                               t.histograms.size(), t.histograms.size() == 1 ? "" : "es");
        out += "\n";
        out += locks::format_lock_stat_v04(r);
    }
    return out;
}

nlohmann::json lock_tables_json(const std::vector<store::LockData>& tables) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& t : tables) {
        const locks::LockStatReport& r = t.report;
        nlohmann::json classes = nlohmann::json::array();
        for (const auto& c : r.classes)
            classes.push_back(class_json(c));
        nlohmann::json histograms = nlohmann::json::object();
        for (const auto& [name, h] : t.histograms)
            histograms[name] = h.to_json();
        j.push_back({{"source", store::to_string(t.source)},
                     {"format", locks::to_string(r.format)},
                     {"version", r.version},
                     {"caption", or_null(r.caption)},
                     {"has_header", r.has_header},
                     {"lockdep_disabled", r.lockdep_disabled},
                     {"excerpt", r.excerpt},
                     {"notes", r.notes},
                     {"classes", std::move(classes)},
                     {"wait_histograms", std::move(histograms)}});
    }
    return j;
}

} // namespace hitmap::cli
