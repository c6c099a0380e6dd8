#pragma once
// A typed cell of a table that several front ends print: unknown (shown "–", empty in CSV,
// never 0), text, an integer or a number printed with its column's decimals.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

namespace hitmap::analysis {

using Cell = std::variant<std::monostate, std::string, std::int64_t, double>;

// A value as a cell; an empty optional is unknown.
template <class T> Cell cell_of(const T& v) {
    if constexpr (std::is_integral_v<T>)
        return static_cast<std::int64_t>(v);
    else if constexpr (std::is_floating_point_v<T>)
        return static_cast<double>(v);
    else
        return std::string(v);
}
template <class T> Cell cell_of(const std::optional<T>& v) {
    return v ? cell_of(*v) : Cell();
}

// A cell as text formats show it: "–" for unknown, doubles with `decimals` and then `suffix`
// ("25.0%"). Not escaped.
std::string cell_text(const Cell& cell, int decimals, std::string_view suffix = {});
// The cell as JSON: null for unknown, numbers at full precision.
nlohmann::json cell_json(const Cell& cell);

} // namespace hitmap::analysis
