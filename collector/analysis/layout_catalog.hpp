#pragma once
// What a database knows about struct layouts, for the layout view: the distinct layouts its
// runs recorded their objects under, and each run's heat per struct (the per-field counts of
// its cacheline tables). Built-in and BTF layouts are the engine's and collector/btf's.
#include "collector/c2c/replay_result.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/database.hpp"
#include "collector/store/records.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hitmap::analysis {

// Same struct type, size, alignment and field placements (the version and origin are names,
// not placement: a stored "v6.0" is the built-in v6.0).
bool same_layout(const engine::Layout& a, const engine::Layout& b);

// Whether objects recorded under `recorded` had `layout`: the same layout, or for a struct
// embedded in the recorded one (a page_counter in a mem_cgroup), a container of a built-in shape
// whose copies sit as `layout` places them (what `--layout page_counter=...` composes).
bool records_layout(const engine::Layout& recorded, const engine::Layout& layout);

// One layout as a database holds it, with the origin of the first run that recorded it (empty
// for runs stored before origins were).
struct StoredLayout {
    engine::Layout layout;
    std::vector<std::int64_t> runs; // the runs with objects under it, ascending
};

// A run's counts for one struct, summed over every instance of that struct in the run: a layout
// places the fields of all instances alike, and a charge walks the whole hierarchy, so the
// struct's heat is its instances' together (root, top, mid and leaf of a memcg run). A memcg
// run records mem_cgroups, not page_counters: a page_counter's heat is that of the four
// counters embedded in each (memory.usage, swap.usage, ... as usage).
struct StructHeat {
    store::RunRecord run;
    const engine::StructType* type = nullptr;
    // The run's objects the counts come from: of `type`, or of the struct that embeds it.
    const engine::StructType* container = nullptr; // null: the objects are of `type`
    std::vector<engine::Layout> recorded;          // the distinct layouts those objects had
    std::size_t objects = 0;
    std::size_t instances = 0; // of `type`: the objects, or the counters placed in them
    std::optional<std::uint64_t> traced_ops; // for rates per 1,000 operations; none imported
    store::KnownCounts known;                // what the run's source could count
    // By FieldId. nullopt when no recorded layout places the field (the run could not count
    // it), or when the counts are samples (hardware, perf c2c) and none fell on the field,
    // which says nothing about whether it was touched; a zero count from a traced or simulated
    // run is a real zero.
    std::vector<std::optional<c2c::ClassCounts>> fields;
};

// nullopt when none of the run's objects is of `type` or embeds it (engine::embedded_copies).
std::optional<StructHeat> struct_heat(const store::RunRecord& run, const store::C2cData& data,
                                      const engine::StructType& type);

struct LayoutCatalog {
    std::vector<StoredLayout> layouts; // in order of the first run that recorded each
    std::vector<StructHeat> heats;     // per run with cacheline data, per struct it recorded
};

// Reads every run's cacheline tables: runs without any are left out.
LayoutCatalog read_layout_catalog(store::Database& db);

} // namespace hitmap::analysis
