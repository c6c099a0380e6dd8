#include "collector/store/records.hpp"

#include <array>
#include <stdexcept>
#include <utility>

namespace hitmap::store {
namespace {

constexpr std::array<std::pair<RunStatus, std::string_view>, 4> status_names{{
    {RunStatus::running, "running"},
    {RunStatus::complete, "complete"},
    {RunStatus::failed, "failed"},
    {RunStatus::cancelled, "cancelled"},
}};

} // namespace

std::string_view to_string(RunStatus status) {
    for (const auto& [value, name] : status_names)
        if (value == status)
            return name;
    throw std::invalid_argument("unknown RunStatus value");
}

RunStatus parse_run_status(std::string_view text) {
    for (const auto& [value, name] : status_names)
        if (name == text)
            return value;
    throw std::invalid_argument("unknown run status '" + std::string(text) + "'");
}

} // namespace hitmap::store
