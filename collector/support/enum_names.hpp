#pragma once
// An enum's names as one table of {value, name} pairs, with the two lookups every such table
// needs: each enum states its names once, and no file loops over a table of its own.
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace hitmap::support {

template <class E> using EnumName = std::pair<E, std::string_view>;

// The name of `value`; empty when the table has no entry for it.
template <class E, std::size_t N>
constexpr std::string_view name_of(const std::array<EnumName<E>, N>& names, E value) {
    for (const auto& [v, name] : names)
        if (v == value)
            return name;
    return {};
}

// The value named `text`; nullopt when no entry has that name.
template <class E, std::size_t N>
constexpr std::optional<E> value_named(const std::array<EnumName<E>, N>& names,
                                       std::string_view text) {
    for (const auto& [value, name] : names)
        if (name == text)
            return value;
    return std::nullopt;
}

} // namespace hitmap::support
