#include "collector/locks/lock_stats.hpp"

#include "collector/locks/errors.hpp"
#include "collector/support/enum_names.hpp"

#include <array>
#include <fmt/format.h>

namespace hitmap::locks {

namespace {

constexpr std::array<support::EnumName<LockFormat>, 8> kFormatNames{{
    {LockFormat::lockstat_v03, "lockstat_v03"},
    {LockFormat::lockstat_v04, "lockstat_v04"},
    {LockFormat::perf_lock_contention, "perf_lock_contention"},
    {LockFormat::perf_lock_contention_csv, "perf_lock_contention_csv"},
    {LockFormat::perf_lock_report, "perf_lock_report"},
    {LockFormat::mutrace, "mutrace"},
    {LockFormat::illumos_lockstat, "illumos_lockstat"},
    {LockFormat::unknown, "unknown"},
}};

constexpr std::array<support::EnumName<LockKey>, 6> kKeyNames{{
    {LockKey::lock_class, "lock_class"},
    {LockKey::lock_name, "lock_name"},
    {LockKey::caller, "caller"},
    {LockKey::task, "task"},
    {LockKey::lock_address, "lock_address"},
    {LockKey::cgroup, "cgroup"},
}};

} // namespace

std::string_view to_string(LockFormat format) {
    return support::name_of(kFormatNames, format);
}
std::optional<LockFormat> lock_format_named(std::string_view name) {
    return support::value_named(kFormatNames, name);
}

std::string_view to_string(LockKey key) {
    return support::name_of(kKeyNames, key);
}
std::optional<LockKey> lock_key_named(std::string_view name) {
    return support::value_named(kKeyNames, name);
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
