#include "collector/perf/data_source.hpp"

#include <linux/perf_event.h>

namespace hitmap::perf {

namespace {

constexpr std::uint64_t field(std::uint64_t raw, unsigned shift, unsigned width) {
    return (raw >> shift) & ((1ULL << width) - 1);
}

} // namespace

DataSource decode_data_src(std::uint64_t raw) {
    DataSource s;
    s.raw = raw;
    s.op = static_cast<std::uint8_t>(field(raw, PERF_MEM_OP_SHIFT, 5));
    s.lvl = static_cast<std::uint16_t>(field(raw, PERF_MEM_LVL_SHIFT, 14));
    s.snoop = static_cast<std::uint8_t>(field(raw, PERF_MEM_SNOOP_SHIFT, 5));
    s.lock = static_cast<std::uint8_t>(field(raw, PERF_MEM_LOCK_SHIFT, 2));
    s.dtlb = static_cast<std::uint8_t>(field(raw, PERF_MEM_TLB_SHIFT, 7));
    s.lvl_num = static_cast<std::uint8_t>(field(raw, PERF_MEM_LVLNUM_SHIFT, 4));
    s.remote = field(raw, PERF_MEM_REMOTE_SHIFT, 1) != 0;
    s.snoopx = static_cast<std::uint8_t>(field(raw, PERF_MEM_SNOOPX_SHIFT, 2));
    s.blk = static_cast<std::uint8_t>(field(raw, PERF_MEM_BLK_SHIFT, 3));
    s.hops = static_cast<std::uint8_t>(field(raw, PERF_MEM_HOPS_SHIFT, 3));
    return s;
}

namespace {

bool load_hit(const DataSource& s, unsigned level) {
    return s.is_load() && (s.lvl & PERF_MEM_LVL_HIT) && (s.lvl & level);
}

bool store_at(const DataSource& s, unsigned outcome, unsigned level) {
    return s.is_store() && (s.lvl & outcome) && (s.lvl & level);
}

// POWER sets remote together with hops for other cores on the same node, so c2c only takes
// "remote" alone to mean another node.
bool remote_node(const DataSource& s) {
    return s.remote && s.hops == 0;
}

// c2c's test for "the line came from another node's cache", HIT or not.
bool from_remote_cache(const DataSource& s) {
    return s.is_load() &&
           ((s.lvl & (PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_REM_CCE2)) || remote_node(s));
}

bool snooped(const DataSource& s, unsigned result) {
    return (s.snoop & result) != 0;
}

bool peer(const DataSource& s) {
    return (s.snoopx & PERF_MEM_SNOOPX_PEER) != 0;
}

constexpr unsigned l2_or_l3 = PERF_MEM_LVL_L2 | PERF_MEM_LVL_L3;

} // namespace

bool DataSource::is_load() const {
    return (op & PERF_MEM_OP_LOAD) != 0;
}
bool DataSource::is_store() const {
    return !is_load() && (op & PERF_MEM_OP_STORE);
}
bool DataSource::is_locked() const {
    return (lock & PERF_MEM_LOCK_LOCKED) != 0;
}

bool DataSource::is_l1_hit() const {
    return load_hit(*this, PERF_MEM_LVL_L1);
}
bool DataSource::is_lfb_hit() const {
    return load_hit(*this, PERF_MEM_LVL_LFB);
}
bool DataSource::is_l2_hit() const {
    return load_hit(*this, PERF_MEM_LVL_L2) && !snooped(*this, PERF_MEM_SNOOP_HITM);
}
bool DataSource::is_llc_hit() const {
    return load_hit(*this, PERF_MEM_LVL_L3) && !snooped(*this, PERF_MEM_SNOOP_HITM);
}
bool DataSource::is_local_hitm() const {
    return load_hit(*this, l2_or_l3) && snooped(*this, PERF_MEM_SNOOP_HITM);
}
bool DataSource::is_local_peer() const {
    return load_hit(*this, l2_or_l3) && peer(*this);
}
bool DataSource::is_local_dram() const {
    return load_hit(*this, PERF_MEM_LVL_LOC_RAM);
}
bool DataSource::is_remote_dram() const {
    return load_hit(*this, PERF_MEM_LVL_REM_RAM1 | PERF_MEM_LVL_REM_RAM2) ||
           (is_load() && (lvl & PERF_MEM_LVL_HIT) && remote_node(*this));
}
bool DataSource::is_remote_hit() const {
    return from_remote_cache(*this) && (snooped(*this, PERF_MEM_SNOOP_HIT) || is_remote_peer());
}
bool DataSource::is_remote_hitm() const {
    return from_remote_cache(*this) && !snooped(*this, PERF_MEM_SNOOP_HIT) &&
           snooped(*this, PERF_MEM_SNOOP_HITM);
}
bool DataSource::is_remote_peer() const {
    return from_remote_cache(*this) && !snooped(*this, PERF_MEM_SNOOP_HIT | PERF_MEM_SNOOP_HITM) &&
           peer(*this);
}
bool DataSource::is_hitm() const {
    return is_local_hitm() || is_remote_hitm();
}
bool DataSource::is_uncached() const {
    return load_hit(*this, PERF_MEM_LVL_UNC);
}
bool DataSource::is_io() const {
    return load_hit(*this, PERF_MEM_LVL_IO);
}
bool DataSource::is_load_miss() const {
    return is_load() && (lvl & PERF_MEM_LVL_MISS);
}

bool DataSource::is_store_l1_hit() const {
    return store_at(*this, PERF_MEM_LVL_HIT, PERF_MEM_LVL_L1);
}
bool DataSource::is_store_l1_miss() const {
    return store_at(*this, PERF_MEM_LVL_MISS, PERF_MEM_LVL_L1);
}
bool DataSource::is_store_uncached() const {
    return store_at(*this, PERF_MEM_LVL_HIT, PERF_MEM_LVL_UNC);
}
bool DataSource::is_store_level_na() const {
    return is_store() && (lvl & PERF_MEM_LVL_NA);
}

} // namespace hitmap::perf
