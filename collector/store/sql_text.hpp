#pragma once
// Pieces of SQL text the store's tables share.
#include <string>

namespace hitmap::store {

// "?, ?, ?" for an INSERT of n columns.
inline std::string placeholders(int n) {
    std::string s;
    for (int i = 0; i < n; ++i)
        s += i ? ", ?" : "?";
    return s;
}

} // namespace hitmap::store
