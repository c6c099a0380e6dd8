#pragma once
// A parsed report as a run's cacheline tables, metrics and code locations, so an imported run
// shows in the same tables and views as a software one.
//
// Without a user layout every shared line is an object of its own, named by its address, whose
// synthesized layout has a field per offset the Pareto shows ("+0x30", up to the next offset).
// A placed layout gives the lines it covers its struct's fields instead.
#include "collector/perfc2c/parsed_report.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/records.hpp"
#include "engine/layout/layout.hpp"

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hitmap::perfc2c {

// A struct layout placed at a data address (`--object STRUCT@ADDR`, `--layout STRUCT=...
// --base ADDR`, or a run's probed object where it lived).
struct PlacedLayout {
    engine::Layout layout;
    std::uint64_t base = 0;
    std::optional<std::string> name{}; // the object's; "STRUCT@ADDR" when not given
    // The type `layout` points at when it was made for this capture (btf/touched_layout.hpp);
    // null for the registry's types, which live as long as the process.
    std::shared_ptr<const engine::StructType> own_type{};
};

// A placed layout none of the report's lines touches.
enum class UncoveredLayout {
    refuse, // a user's --base that misses is a mistake
    keep,   // a run's own objects perf saw no shared line on: objects without lines
};

struct ImportedC2c {
    // The synthesized struct types the objects' layouts point at: keep this value alive while
    // `data` is used.
    std::vector<std::unique_ptr<engine::StructType>> types;
    std::optional<store::C2cData> data; // nullopt for `--stats` output: it has no lines
    // Every figure of the text the cacheline tables do not hold (records, store L1 misses,
    // cycles, cpu counts, the statistics sections), source imported.
    std::vector<store::Metric> metrics;
    // Per line, the Pareto rows' code side: symbol, object, source:line, node, pid/tid.
    nlohmann::json code = nlohmann::json::array();
    std::vector<Note> notes; // the parser's, then the placement's
};

// Throws LayoutPlacementError when a placed layout overlaps another or (refuse) covers no line
// of the report, and when there are more lines than objects a run can hold. Placed layouts are
// the objects 0..n-1, in order.
ImportedC2c import_report(const C2cReport& report, const std::vector<PlacedLayout>& placed,
                          UncoveredLayout uncovered = UncoveredLayout::refuse);

} // namespace hitmap::perfc2c
