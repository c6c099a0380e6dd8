#include "collector/perf/spe_data_source.hpp"

#include <algorithm>
#include <array>
#include <linux/perf_event.h>

namespace hitmap::perf {

namespace {

// MIDR_EL1: implementer in bits 31:24, part number in 15:4 (arch/arm64/include/asm/cputype.h).
struct CoreModel {
    std::uint32_t implementer;
    std::uint32_t part;
    SpeDataSourceEncoding encoding;
};

// perf's common_ds_encoding_cpus and ampereone_ds_encoding_cpus (tools/perf/util/arm-spe.c),
// every variant and revision.
constexpr std::array core_models{
    CoreModel{0x41, 0xd81, SpeDataSourceEncoding::common},    // Cortex-A720
    CoreModel{0x41, 0xd87, SpeDataSourceEncoding::common},    // Cortex-A725
    CoreModel{0x41, 0xd4c, SpeDataSourceEncoding::common},    // Cortex-X1C
    CoreModel{0x41, 0xd4e, SpeDataSourceEncoding::common},    // Cortex-X3
    CoreModel{0x41, 0xd85, SpeDataSourceEncoding::common},    // Cortex-X925
    CoreModel{0x41, 0xd0c, SpeDataSourceEncoding::common},    // Neoverse N1
    CoreModel{0x41, 0xd49, SpeDataSourceEncoding::common},    // Neoverse N2
    CoreModel{0x41, 0xd40, SpeDataSourceEncoding::common},    // Neoverse V1
    CoreModel{0x41, 0xd4f, SpeDataSourceEncoding::common},    // Neoverse V2
    CoreModel{0xc0, 0xac4, SpeDataSourceEncoding::ampereone}, // AmpereOne A1A
};

SpeDataSourceEncoding encoding_of(std::uint64_t midr) {
    const auto implementer = static_cast<std::uint32_t>((midr >> 24) & 0xff);
    const auto part = static_cast<std::uint32_t>((midr >> 4) & 0xfff);
    for (const CoreModel& model : core_models)
        if (model.implementer == implementer && model.part == part)
            return model.encoding;
    return SpeDataSourceEncoding::unknown;
}

// The data source codes of the common encoding (arm-spe-decoder.h arm_spe_common_data_source).
namespace common_code {
constexpr std::uint16_t l1d = 0x0;
constexpr std::uint16_t l2 = 0x8;
constexpr std::uint16_t peer_core = 0x9;
constexpr std::uint16_t local_cluster = 0xa;
constexpr std::uint16_t system_cache = 0xb;
constexpr std::uint16_t peer_cluster = 0xc;
constexpr std::uint16_t remote = 0xd;
constexpr std::uint16_t dram = 0xe;
} // namespace common_code

// AmpereOne's codes as common ones (arm_spe__synth_data_source_ampereone); nullopt: unknown.
std::optional<std::uint16_t> ampereone_as_common(std::uint16_t source) {
    using namespace common_code;
    switch (source) {
    case 0x0: // local chip cache or device
        return peer_core;
    case 0x3: // system level cache
        return system_cache;
    case 0x5: // remote chip cache
        return remote;
    case 0x7: // DDR
        return dram;
    case 0x8:
        return l1d;
    case 0x9: // L2D
        return l2;
    default:
        return std::nullopt;
    }
}

// perf_mem_data_src as separate fields; 0 = not set yet.
struct DataSrcFields {
    std::uint64_t op = 0;
    std::uint64_t lvl = 0;
    std::uint64_t lvl_num = 0;
    std::uint64_t snoop = 0;
    std::uint64_t snoopx = 0;
    std::uint64_t remote = 0;
    std::uint64_t dtlb = 0;

    std::uint64_t packed() const {
        return op << PERF_MEM_OP_SHIFT | lvl << PERF_MEM_LVL_SHIFT | snoop << PERF_MEM_SNOOP_SHIFT |
               dtlb << PERF_MEM_TLB_SHIFT | lvl_num << PERF_MEM_LVLNUM_SHIFT |
               remote << PERF_MEM_REMOTE_SHIFT | snoopx << PERF_MEM_SNOOPX_SHIFT;
    }
};

void set_level(DataSrcFields& f, std::uint64_t lvl, std::uint64_t lvl_num) {
    f.lvl = lvl;
    f.lvl_num = lvl_num;
}

// arm_spe__synth_data_source_common() for a load. A line from another core's cache is a peer
// transfer (SNOOPX_PEER), which c2c counts beside HITMs: the data source does not say whether
// the line was modified (events 21 and 23 may, see spe_data_src()).
void common_load_source(DataSrcFields& f, std::uint16_t source) {
    using namespace common_code;
    switch (source) {
    case l1d:
        set_level(f, PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_L1);
        f.snoop = PERF_MEM_SNOOP_NONE;
        break;
    case l2:
        set_level(f, PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_L2);
        f.snoop = PERF_MEM_SNOOP_NONE;
        break;
    case peer_core:
        set_level(f, PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_L2);
        f.snoopx = PERF_MEM_SNOOPX_PEER;
        break;
    case local_cluster: // L1 or L2 of a core in this or another cluster: a cache-to-cache
    case peer_cluster:  // transfer at an unknown level, taken as L3
        set_level(f, PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_L3);
        f.snoopx = PERF_MEM_SNOOPX_PEER;
        break;
    case system_cache: // the system level cache stands for L3
        set_level(f, PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_L3);
        f.snoop = PERF_MEM_SNOOP_HIT;
        break;
    case remote: // another socket, level unknown
        set_level(f, PERF_MEM_LVL_REM_CCE1, PERF_MEM_LVLNUM_ANY_CACHE);
        f.remote = PERF_MEM_REMOTE_REMOTE;
        f.snoopx = PERF_MEM_SNOOPX_PEER;
        break;
    case dram:
        set_level(f, PERF_MEM_LVL_LOC_RAM | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_RAM);
        f.snoop = PERF_MEM_SNOOP_NONE;
        break;
    default: // a code this table does not know: the events decide
        break;
    }
}

bool hit_in(const SpeRecord& r, SpeEvent access, SpeEvent miss) {
    return r.has(access) && !r.has(miss);
}

bool reached(const SpeRecord& r, SpeEvent access, SpeEvent miss) {
    return r.has(access) || r.has(miss);
}

// What the events say when the data source did not (arm_spe__synth_memory_level() of the perf
// that reads events 19-23): a load by the closest level it hit, else the farthest it missed;
// a store by the farthest level it reached.
void levels_from_events(DataSrcFields& f, const SpeRecord& r) {
    using E = SpeEvent;
    if (r.op == SpeOperation::load) {
        if (hit_in(r, E::l1d_access, E::l1d_refill))
            set_level(f, PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_L1);
        else if (r.has(E::recently_fetched))
            set_level(f, PERF_MEM_LVL_LFB | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_LFB);
        else if (hit_in(r, E::l2d_access, E::l2d_miss))
            set_level(f, PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_L2);
        else if (hit_in(r, E::llc_access, E::llc_miss))
            set_level(f, PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT, PERF_MEM_LVLNUM_L3);
        else if (r.has(E::llc_miss))
            set_level(f, PERF_MEM_LVL_L3 | PERF_MEM_LVL_MISS, PERF_MEM_LVLNUM_L3);
        else if (r.has(E::l2d_miss))
            set_level(f, PERF_MEM_LVL_L2 | PERF_MEM_LVL_MISS, PERF_MEM_LVLNUM_L2);
        else if (r.has(E::l1d_refill))
            set_level(f, PERF_MEM_LVL_L1 | PERF_MEM_LVL_MISS, PERF_MEM_LVLNUM_L1);
    } else {
        const auto outcome = [&](E miss) {
            return r.has(miss) ? PERF_MEM_LVL_MISS : PERF_MEM_LVL_HIT;
        };
        if (reached(r, E::llc_access, E::llc_miss))
            set_level(f, PERF_MEM_LVL_L3 | outcome(E::llc_miss), PERF_MEM_LVLNUM_L3);
        else if (reached(r, E::l2d_access, E::l2d_miss))
            set_level(f, PERF_MEM_LVL_L2 | outcome(E::l2d_miss), PERF_MEM_LVLNUM_L2);
        else if (reached(r, E::l1d_access, E::l1d_refill))
            set_level(f, PERF_MEM_LVL_L1 | outcome(E::l1d_refill), PERF_MEM_LVLNUM_L1);
    }
}

} // namespace

SpeDataSourceEncoding spe_data_source_encoding(std::span<const std::uint64_t> midrs) {
    if (midrs.empty())
        return SpeDataSourceEncoding::unknown;
    const SpeDataSourceEncoding first = encoding_of(midrs.front());
    const bool uniform =
        std::ranges::all_of(midrs, [&](std::uint64_t midr) { return encoding_of(midr) == first; });
    return uniform ? first : SpeDataSourceEncoding::unknown;
}

std::optional<std::uint64_t> spe_data_src(const SpeRecord& record, SpeDataSourceEncoding encoding) {
    DataSrcFields f;
    if (record.op == SpeOperation::load)
        f.op = PERF_MEM_OP_LOAD;
    else if (record.op == SpeOperation::store)
        f.op = PERF_MEM_OP_STORE;
    else
        return std::nullopt;

    std::optional<std::uint16_t> common = record.data_source;
    if (encoding == SpeDataSourceEncoding::ampereone && common)
        common = ampereone_as_common(*common);
    if (encoding != SpeDataSourceEncoding::unknown && record.op == SpeOperation::store) {
        // Cores of the known encodings say nothing about where a store went (perf: "We have no
        // data on the hit level or data source for stores in the Neoverse SPE records").
        set_level(f, PERF_MEM_LVL_NA, PERF_MEM_LVLNUM_NA);
        f.snoop = PERF_MEM_SNOOP_NA;
    } else if (encoding != SpeDataSourceEncoding::unknown && common) {
        common_load_source(f, *common);
    }

    if (f.lvl == 0)
        levels_from_events(f, record);
    if (f.lvl == 0)
        set_level(f, PERF_MEM_LVL_NA, PERF_MEM_LVLNUM_NA);
    if (f.snoop == 0) {
        // Later SPE revisions say whether another cache was snooped and whether its copy was
        // modified; without these events nothing is known.
        if (record.has(SpeEvent::data_snooped))
            f.snoop = record.has(SpeEvent::cache_data_modified) ? PERF_MEM_SNOOP_HITM
                                                                : PERF_MEM_SNOOP_HIT;
        else
            f.snoop = PERF_MEM_SNOOP_NA;
    }
    if (f.remote == 0 && record.has(SpeEvent::remote_access))
        f.remote = PERF_MEM_REMOTE_REMOTE;
    if (reached(record, SpeEvent::tlb_access, SpeEvent::tlb_walk))
        f.dtlb = PERF_MEM_TLB_WK |
                 (record.has(SpeEvent::tlb_walk) ? PERF_MEM_TLB_MISS : PERF_MEM_TLB_HIT);
    return f.packed();
}

std::optional<MemorySample> spe_memory_sample(const SpeRecord& record,
                                              SpeDataSourceEncoding encoding) {
    const std::optional<std::uint64_t> data_src = spe_data_src(record, encoding);
    if (!data_src || !record.data_address)
        return std::nullopt;
    MemorySample s;
    s.ip = record.pc.value_or(0);
    s.addr = *record.data_address;
    s.data_src = *data_src;
    s.weight = record.total_latency.value_or(0); // SPE writes it for every sampled operation
    return s;
}

} // namespace hitmap::perf
