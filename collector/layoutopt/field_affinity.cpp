#include "collector/layoutopt/field_affinity.hpp"

#include "collector/layoutopt/errors.hpp"
#include "collector/layoutopt/line_layout.hpp"

#include <fmt/format.h>

namespace hitmap::layoutopt {

namespace {

// Lines of one probe layout: each group on its own line, then the parked fields packed.
std::vector<std::vector<engine::FieldId>>
probe_lines(const engine::StructType& type, std::vector<std::vector<engine::FieldId>> groups,
            std::span<const engine::FieldId> parked) {
    std::vector<engine::FieldId> line;
    for (const engine::FieldId f : parked) {
        line.push_back(f);
        if (packed_bytes(type, line) > kLineSize) {
            line.pop_back();
            groups.push_back(std::move(line));
            line = {f};
        }
    }
    if (!line.empty())
        groups.push_back(std::move(line));
    return groups;
}

// The transfers of each probe group's lines, summed over the copies.
std::vector<double> group_transfers(const store::C2cData& data, const StructCopies& copies,
                                    const std::vector<std::optional<std::size_t>>& group_of,
                                    std::size_t groups) {
    std::vector<double> out(groups, 0);
    for (const StructLine& l : struct_lines(data, copies)) {
        const auto g = group_of[l.fields.front()];
        if (g)
            out[*g] += static_cast<double>(l.transfers);
    }
    return out;
}

} // namespace

std::size_t affinity_evaluations(std::size_t accessed) {
    return accessed < 2 ? 1 : 1 + (accessed % 2 ? accessed : accessed - 1);
}

Affinity measure_affinity(const StructCopies& copies, std::span<const engine::FieldId> accessed,
                          std::span<const engine::FieldId> others, const Evaluate& evaluate,
                          const Progress& progress, std::size_t done, std::size_t total) {
    const engine::StructType& type = copies.type();
    const std::size_t n = accessed.size();
    Affinity a;
    a.fields.assign(accessed.begin(), accessed.end());
    a.costs.self.assign(n, 0);
    a.costs.pair.assign(n, std::vector<double>(n, 0));
    const auto run = [&](const std::vector<std::vector<std::size_t>>& groups, std::size_t round) {
        std::vector<std::vector<engine::FieldId>> lines;
        std::vector<std::optional<std::size_t>> group_of(type.fields.size());
        for (std::size_t g = 0; g < groups.size(); ++g) {
            lines.emplace_back();
            for (const std::size_t i : groups[g]) {
                lines.back().push_back(a.fields[i]);
                group_of[a.fields[i]] = g;
            }
        }
        const std::string version = fmt::format("affinity-probe-{}", round);
        if (progress)
            progress(done + a.evaluations, total, version);
        const engine::Layout probe =
            layout_from_lines(type, probe_lines(type, std::move(lines), others), version);
        ++a.evaluations;
        return group_transfers(evaluate({{type.name, probe}}), copies, group_of, groups.size());
    };

    std::vector<std::vector<std::size_t>> alone;
    for (std::size_t i = 0; i < n; ++i)
        alone.push_back({i});
    const std::vector<double> self = run(alone, 0);
    for (std::size_t i = 0; i < n; ++i)
        a.costs.self[i] = self[i];

    // Circle method: player 0 stays, the others rotate; with n odd, the last player is a bye.
    const std::size_t players = n + n % 2;
    for (std::size_t round = 0; n >= 2 && round + 1 < players; ++round) {
        std::vector<std::size_t> seat(players);
        seat[0] = 0;
        for (std::size_t k = 1; k < players; ++k)
            seat[k] = 1 + (k - 1 + round) % (players - 1);
        std::vector<std::vector<std::size_t>> groups;
        for (std::size_t k = 0; k < players / 2; ++k) {
            const std::size_t x = seat[k], y = seat[players - 1 - k];
            if (x >= n || y >= n) {
                groups.push_back({x < n ? x : y});
                continue;
            }
            groups.push_back({std::min(x, y), std::max(x, y)});
        }
        const std::vector<double> line = run(groups, round + 1);
        for (std::size_t g = 0; g < groups.size(); ++g) {
            if (groups[g].size() != 2)
                continue;
            const std::size_t x = groups[g][0], y = groups[g][1];
            const double extra = line[g] - a.costs.self[x] - a.costs.self[y];
            a.costs.pair[x][y] = a.costs.pair[y][x] = extra;
        }
    }
    return a;
}

} // namespace hitmap::layoutopt
