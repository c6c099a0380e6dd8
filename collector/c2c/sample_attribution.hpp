#pragma once
// Hardware samples to named fields: each precise memory sample carries a real data address;
// the probed objects' real addresses and layouts say which object, line and field it hit. The
// result has the replay's shape (lines, fields, CPUs; no writer pairs: a sample does not say
// whose store the line carried), so a hardware run fills the same tables as a software one.
// The counts are samples, not accesses: one sample stands for about a sampling period of them.
#include "collector/c2c/replay_result.hpp"
#include "engine/probe/object_registry.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace hitmap::c2c {

// One sample, already classified: `counts` has loads or stores at 1 and the class the data
// source named (l1_hit, load_hitm, clean_forward, cold) at 1 where it named one.
struct AddressedSample {
    std::uint64_t address = 0;
    std::uint32_t cpu = 0;
    ClassCounts counts;
};

struct SampleAttribution {
    ReplayResult result;        // records = the samples that hit a probed object
    std::uint64_t unmapped = 0; // samples elsewhere (stack, allocator, the kernel, ...)
};

// `addresses` by ObjectId (ObjectRegistry::addresses()); an object at address 0 is skipped.
// A sample in bytes no field covers (padding) counts for its line only. line_size: a power of 2.
SampleAttribution attribute_samples(std::span<const AddressedSample> samples,
                                    const std::vector<engine::ObjectInfo>& objects,
                                    const std::vector<std::uint64_t>& addresses,
                                    std::uint32_t line_size);

} // namespace hitmap::c2c
