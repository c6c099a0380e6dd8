#pragma once
// Unknown is not zero: how every report, JSON document and view shows a value its source could
// not give. Here, below the report layer, so that perf's capability JSON follows it too.
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace hitmap::support {

// What a text report prints for an unknown value.
inline constexpr std::string_view unknown_text = "–";

// JSON null for an unknown value.
template <class T> nlohmann::json json_or_null(const std::optional<T>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json();
}

// fmt's format of the value, or "–". `spec` is a replacement field such as "{:.2f}".
template <class T>
std::string text_or_unknown(const std::optional<T>& value, fmt::format_string<const T&> spec) {
    return value ? fmt::format(spec, *value) : std::string(unknown_text);
}

} // namespace hitmap::support
