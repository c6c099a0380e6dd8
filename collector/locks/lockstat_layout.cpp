#include "collector/locks/lockstat_layout.hpp"

#include "collector/support/enum_names.hpp"

#include <array>
#include <utility>

namespace hitmap::locks {

namespace {

constexpr std::array<support::EnumName<LockstatColumn>, 13> kTitles{{
    {LockstatColumn::class_name, "class name"},
    {LockstatColumn::con_bounces, "con-bounces"},
    {LockstatColumn::contentions, "contentions"},
    {LockstatColumn::waittime_min, "waittime-min"},
    {LockstatColumn::waittime_max, "waittime-max"},
    {LockstatColumn::waittime_total, "waittime-total"},
    {LockstatColumn::waittime_avg, "waittime-avg"},
    {LockstatColumn::acq_bounces, "acq-bounces"},
    {LockstatColumn::acquisitions, "acquisitions"},
    {LockstatColumn::holdtime_min, "holdtime-min"},
    {LockstatColumn::holdtime_max, "holdtime-max"},
    {LockstatColumn::holdtime_total, "holdtime-total"},
    {LockstatColumn::holdtime_avg, "holdtime-avg"},
}};

} // namespace

std::string_view title(LockstatColumn column) {
    return support::name_of(kTitles, column);
}

std::optional<LockstatColumn> column_titled(std::string_view wanted) {
    return support::value_named(kTitles, wanted);
}

bool is_time_column(LockstatColumn column) {
    switch (column) {
    case LockstatColumn::waittime_min:
    case LockstatColumn::waittime_max:
    case LockstatColumn::waittime_total:
    case LockstatColumn::waittime_avg:
    case LockstatColumn::holdtime_min:
    case LockstatColumn::holdtime_max:
    case LockstatColumn::holdtime_total:
    case LockstatColumn::holdtime_avg:
        return true;
    default:
        return false;
    }
}

std::int64_t lockdep_average(std::int64_t total_ns, std::uint64_t count) {
    // In 128 bits: a count above INT64_MAX must not turn negative.
    return count == 0 ? 0 : static_cast<std::int64_t>(static_cast<__int128>(total_ns) / count);
}

const std::vector<LockstatColumn>& v03_columns() {
    using C = LockstatColumn;
    static const std::vector<LockstatColumn> columns{
        C::con_bounces, C::contentions,  C::waittime_min, C::waittime_max, C::waittime_total,
        C::acq_bounces, C::acquisitions, C::holdtime_min, C::holdtime_max, C::holdtime_total};
    return columns;
}

const std::vector<LockstatColumn>& v04_columns() {
    using C = LockstatColumn;
    static const std::vector<LockstatColumn> columns{
        C::con_bounces,    C::contentions,  C::waittime_min,   C::waittime_max,
        C::waittime_total, C::waittime_avg, C::acq_bounces,    C::acquisitions,
        C::holdtime_min,   C::holdtime_max, C::holdtime_total, C::holdtime_avg};
    return columns;
}

std::optional<std::int64_t>& time_slot(LockCounters& c, LockstatColumn column) {
    switch (column) {
    case LockstatColumn::waittime_min:
        return c.wait.min_ns;
    case LockstatColumn::waittime_max:
        return c.wait.max_ns;
    case LockstatColumn::waittime_total:
        return c.wait.total_ns;
    case LockstatColumn::waittime_avg:
        return c.wait.avg_ns;
    case LockstatColumn::holdtime_min:
        return c.hold.min_ns;
    case LockstatColumn::holdtime_max:
        return c.hold.max_ns;
    case LockstatColumn::holdtime_total:
        return c.hold.total_ns;
    default:
        return c.hold.avg_ns;
    }
}

std::optional<std::uint64_t>& count_slot(LockCounters& c, LockstatColumn column) {
    switch (column) {
    case LockstatColumn::con_bounces:
        return c.con_bounces;
    case LockstatColumn::contentions:
        return c.contentions;
    case LockstatColumn::acq_bounces:
        return c.acq_bounces;
    default:
        return c.acquisitions;
    }
}

} // namespace hitmap::locks
