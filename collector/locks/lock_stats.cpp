#include "collector/locks/lock_stats.hpp"

#include "collector/locks/errors.hpp"

#include <fmt/format.h>

namespace hitmap::locks {

std::string_view to_string(LockFormat format) {
    switch (format) {
    case LockFormat::lockstat_v03:
        return "lockstat_v03";
    case LockFormat::lockstat_v04:
        return "lockstat_v04";
    case LockFormat::perf_lock_contention:
        return "perf_lock_contention";
    case LockFormat::perf_lock_contention_csv:
        return "perf_lock_contention_csv";
    case LockFormat::perf_lock_report:
        return "perf_lock_report";
    case LockFormat::mutrace:
        return "mutrace";
    case LockFormat::illumos_lockstat:
        return "illumos_lockstat";
    case LockFormat::unknown:
        break;
    }
    return "unknown";
}

std::string_view to_string(LockKey key) {
    switch (key) {
    case LockKey::lock_class:
        return "lock_class";
    case LockKey::lock_name:
        return "lock_name";
    case LockKey::caller:
        return "caller";
    case LockKey::task:
        return "task";
    case LockKey::lock_address:
        return "lock_address";
    case LockKey::cgroup:
        return "cgroup";
    }
    return "lock_class";
}

std::uint64_t LockClassStats::total_contentions() const {
    std::uint64_t total = 0;
    if (write)
        total += write->contentions.value_or(0);
    if (read)
        total += read->contentions.value_or(0);
    return total;
}

LockParseError::LockParseError(std::size_t line, const std::string& reason)
    : std::runtime_error(fmt::format("line {}: {}", line, reason))
    , line_(line)
    , reason_(reason) {}

void CollectingSink::begin_table(const LockStatReport& table) {
    reports.push_back(table);
}

void CollectingSink::add_class(LockClassStats&& stats) {
    reports.back().classes.push_back(std::move(stats));
}

void CollectingSink::end_table(const LockStatReport& table) {
    std::vector<LockClassStats> classes = std::move(reports.back().classes);
    reports.back() = table;
    reports.back().classes = std::move(classes);
}

void replay(std::vector<LockStatReport> reports, LockTableSink& sink) {
    for (auto& report : reports) {
        std::vector<LockClassStats> classes = std::move(report.classes);
        report.classes.clear();
        sink.begin_table(report);
        for (auto& stats : classes)
            sink.add_class(std::move(stats));
        sink.end_table(report);
    }
}

} // namespace hitmap::locks
