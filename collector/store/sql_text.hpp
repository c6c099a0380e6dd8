#pragma once
// Pieces of SQL text the store's tables share.
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::store {

// "?, ?, ?" for an INSERT of n columns.
inline std::string placeholders(int n) {
    std::string s;
    for (int i = 0; i < n; ++i)
        s += i ? ", ?" : "?";
    return s;
}

// "INSERT INTO table (a, b) VALUES (:a, :b)": each value is then bound by its column's name
// (Statement::bind(":a", ...), which throws for a name the statement lacks), so a column added
// in the middle cannot shift the others.
inline std::string named_insert(std::string_view table,
                                const std::vector<std::string_view>& columns) {
    std::string names, parameters;
    for (std::string_view c : columns) {
        if (!names.empty()) {
            names += ", ";
            parameters += ", ";
        }
        names += c;
        parameters += ':';
        parameters += c;
    }
    return "INSERT INTO " + std::string(table) + " (" + names + ") VALUES (" + parameters + ")";
}

} // namespace hitmap::store
