#include "collector/store/timestamp.hpp"

#include <ctime>
#include <fmt/format.h>

namespace hitmap::store {

std::string iso8601_utc(std::chrono::system_clock::time_point t) {
    using namespace std::chrono;
    const auto ms = time_point_cast<milliseconds>(t);
    const auto secs = floor<seconds>(ms);
    const std::time_t tt = system_clock::to_time_t(secs);
    std::tm tm{};
    gmtime_r(&tt, &tm);
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", tm.tm_year + 1900,
                       tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                       (ms - secs).count());
}

} // namespace hitmap::store
