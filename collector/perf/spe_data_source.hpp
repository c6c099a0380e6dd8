#pragma once
// An Arm SPE record as a perf_mem_data_src, so that SPE samples are classified by the same
// DataSource predicates as Intel and AMD ones (data_source.hpp). SPE's data source packet is
// IMPLEMENTATION DEFINED: its codes are read by the cores' MIDR, as perf's
// arm_spe__synth_data_source() does (tools/perf/util/arm-spe.c), and where the encoding is not
// known the level comes from the record's events alone. Pure.
#include "collector/perf/sample_records.hpp"
#include "collector/perf/spe_records.hpp"

#include <cstdint>
#include <optional>
#include <span>

namespace hitmap::perf {

enum class SpeDataSourceEncoding : std::uint8_t {
    unknown,   // events only
    common,    // Neoverse N1/N2/V1/V2, Cortex-A720/A725/X1C/X3/X925
    ampereone, // AmpereOne A1A: its own codes, mapped onto the common ones
};

// The encoding of the cores with these MIDR_EL1 values: one encoding only when they all agree
// (perf likewise decodes per-thread data only on homogeneous machines).
SpeDataSourceEncoding spe_data_source_encoding(std::span<const std::uint64_t> midrs);

// The perf_mem_data_src of a load or store; nullopt for other operations.
std::optional<std::uint64_t> spe_data_src(const SpeRecord& record, SpeDataSourceEncoding encoding);

// A load or store with a data address as a MemorySample: ip, addr, data_src, and the total
// latency as weight. pid, tid, time and cpu are not in the record (the AUX record that
// delivered it has them) and stay 0. nullopt for other records.
std::optional<MemorySample> spe_memory_sample(const SpeRecord& record,
                                              SpeDataSourceEncoding encoding);

} // namespace hitmap::perf
