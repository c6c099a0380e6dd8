#pragma once
// perf_mem_data_src split into its fields (uapi bit layout, reference/c2c.md §2.1) and
// classified the way perf c2c counts samples (c2c_decode_stats, c2c.md §2.3). The predicates
// mirror c2c's counters; like them they overlap (an L3 HITM load may also be a peer transfer).
#include <cstdint>

namespace hitmap::perf {

struct DataSource {
    std::uint64_t raw = 0;
    std::uint8_t op = 0;      // PERF_MEM_OP_* bits
    std::uint16_t lvl = 0;    // PERF_MEM_LVL_* bits: legacy, but what c2c classifies on
    std::uint8_t snoop = 0;   // PERF_MEM_SNOOP_* bits
    std::uint8_t lock = 0;    // PERF_MEM_LOCK_* bits
    std::uint8_t dtlb = 0;    // PERF_MEM_TLB_* bits
    std::uint8_t lvl_num = 0; // PERF_MEM_LVLNUM_* value
    bool remote = false;
    std::uint8_t snoopx = 0; // PERF_MEM_SNOOPX_* bits
    std::uint8_t blk = 0;    // PERF_MEM_BLK_* bits
    std::uint8_t hops = 0;   // PERF_MEM_HOPS_* value; 0 = not reported

    bool is_load() const;
    bool is_store() const; // c2c counts an op with both bits as a load
    bool is_locked() const;

    // Loads; the "local" kinds require a hit.
    bool is_l1_hit() const;
    bool is_lfb_hit() const; // line fill buffer (Intel) / miss address buffer (AMD)
    bool is_l2_hit() const;  // excluding HITM
    bool is_llc_hit() const; // excluding HITM
    bool is_local_hitm() const;
    bool is_local_peer() const;
    bool is_local_dram() const;
    bool is_remote_dram() const;
    bool is_remote_hit() const; // clean line from a remote cache (c2c's rmt_hit)
    bool is_remote_hitm() const;
    bool is_remote_peer() const;
    bool is_hitm() const; // local or remote
    bool is_uncached() const;
    bool is_io() const;
    bool is_load_miss() const;

    // Stores: precise stores only report L1 hit or miss.
    bool is_store_l1_hit() const;
    bool is_store_l1_miss() const;
    bool is_store_uncached() const;
    bool is_store_level_na() const;
};

DataSource decode_data_src(std::uint64_t raw);

} // namespace hitmap::perf
