#pragma once
// What the optimizer needs from a run: the struct's transfers under a layout. A replay of the
// run's trace or a simulation of the run again, both as the c2c tables a run stores.
#include "collector/c2c/address_map.hpp"
#include "collector/c2c/replay.hpp"
#include "collector/layoutopt/struct_copies.hpp"
#include "collector/store/c2c_tables.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace hitmap::layoutopt {

// The run under `layouts` (struct name -> layout; empty: as recorded).
using Evaluate = std::function<store::C2cData(const c2c::LayoutOverrides& layouts)>;

// Replays of a recorded run's trace (`threads`, kept alive by the caller) under each layout,
// with `config`'s line size, caches and costs; the evaluation keeps the run's objects and
// trace facts, so rates are per its traced operations.
Evaluate replay_evaluation(std::span<const c2c::ThreadTrace> threads,
                           const store::C2cData& recorded, c2c::ReplayConfig config);

// Called before each evaluation: how many are done, how many are planned, what comes next.
using Progress = std::function<void(std::size_t done, std::size_t total, const std::string& what)>;

// One line that holds fields of a copy of the struct, with the transfers it took.
struct StructLine {
    std::uint32_t copy = 0;
    std::vector<engine::FieldId> fields; // the struct's fields accessed on the line
    std::uint64_t transfers = 0;
};

// The lines of `data` that hold the struct's fields. Throws OptimizeError for a line that holds
// fields of two copies, or a copy's fields beside other fields: a struct laid out on whole
// lines never shares one, so such a line means the objects do not start on a line (phase).
std::vector<StructLine> struct_lines(const store::C2cData& data, const StructCopies& copies);

// Transfers of every line that holds a field of a copy of the struct, whatever else it holds.
std::uint64_t struct_line_transfers(const store::C2cData& data, const StructCopies& copies);

// Transfers per field of the struct (index FieldId), summed over its copies.
std::vector<std::uint64_t> transfers_by_field(const store::C2cData& data,
                                              const StructCopies& copies);

// The struct's fields accessed at least once in `data`.
std::vector<engine::FieldId> accessed_fields(const store::C2cData& data,
                                             const StructCopies& copies);

} // namespace hitmap::layoutopt
