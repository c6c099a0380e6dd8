#include "collector/analysis/table_cell.hpp"

#include "collector/support/unknown.hpp"

#include <fmt/format.h>

namespace hitmap::analysis {

std::string cell_text(const Cell& cell, int decimals, std::string_view suffix) {
    struct Visit {
        int decimals;
        std::string_view suffix;
        std::string operator()(std::monostate) const { return std::string(support::unknown_text); }
        std::string operator()(const std::string& s) const { return s; }
        std::string operator()(std::int64_t v) const { return std::to_string(v); }
        std::string operator()(double v) const {
            return fmt::format("{:.{}f}{}", v, decimals, suffix);
        }
    };
    return std::visit(Visit{decimals, suffix}, cell);
}

nlohmann::json cell_json(const Cell& cell) {
    return std::visit(
        [](const auto& v) -> nlohmann::json {
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::monostate>)
                return nullptr;
            else
                return v;
        },
        cell);
}

} // namespace hitmap::analysis
