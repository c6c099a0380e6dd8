#pragma once
#include <chrono>
#include <string>

namespace hitmap::store {

// "2024-05-01T12:34:56.789Z": sorts as text in time order.
std::string iso8601_utc(std::chrono::system_clock::time_point t);
inline std::string utc_now() {
    return iso8601_utc(std::chrono::system_clock::now());
}

} // namespace hitmap::store
