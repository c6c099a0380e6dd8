#pragma once
// perf c2c report text made in the tests: section frames and table headers laid out as perf
// lays them out (two-space gaps, names right-aligned over dot runs, dashed group spans), so a
// synthetic report exercises the same header reading as a real one.
#include <string>
#include <vector>

namespace hitmap::testing {

struct HeaderColumn {
    std::string group; // "-Load Peer" spans the following columns with the same group; a plain
                       // word sits above this column alone; empty: none
    std::string name;
    std::size_t width;
};

inline std::string section(const std::string& title) {
    const std::string rule(49, '=');
    return rule + "\n" + std::string((49 - title.size()) / 2, ' ') + title + "\n" + rule + "\n";
}

// "#", group line, name line, dot line, "#".
inline std::string table_header(const std::vector<HeaderColumn>& columns) {
    std::string group = "#", names = "#", dots = "#";
    for (std::size_t c = 0; c < columns.size();) {
        const HeaderColumn& col = columns[c];
        if (!col.group.empty() && col.group[0] == '-') {
            std::size_t width = 0, end = c;
            for (; end < columns.size() && columns[end].group == col.group; ++end)
                width += columns[end].width + 2;
            const std::string title = " " + col.group.substr(1) + " ";
            const std::size_t dashes = width - 2 - title.size();
            group +=
                "  " + std::string(dashes / 2, '-') + title + std::string(dashes - dashes / 2, '-');
            for (; c < end; ++c) {
                names += "  " + std::string(columns[c].width - columns[c].name.size(), ' ') +
                         columns[c].name;
                dots += "  " + std::string(columns[c].width, '.');
            }
            continue;
        }
        group += "  " + std::string(col.width - col.group.size(), ' ') + col.group;
        names += "  " + std::string(col.width - col.name.size(), ' ') + col.name;
        dots += "  " + std::string(col.width, '.');
        ++c;
    }
    return "#\n" + group + "\n" + names + "\n" + dots + "\n#\n";
}

} // namespace hitmap::testing
