#include "collector/perf/data_source.hpp"
#include "tests/support/shared_dir.hpp"

#include <fstream>
#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <regex>

namespace hitmap::perf {
namespace {

// Worked values from reference/c2c.md §2.2 (Alder Lake mem-loads samples).
TEST(DecodeDataSrc, L1HitLoad) {
    const DataSource s = decode_data_src(0x10268100142);
    EXPECT_EQ(s.op, PERF_MEM_OP_LOAD);
    EXPECT_EQ(s.lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1);
    EXPECT_EQ(s.snoop, PERF_MEM_SNOOP_NONE);
    EXPECT_EQ(s.lock, 0);
    EXPECT_EQ(s.dtlb, PERF_MEM_TLB_HIT | PERF_MEM_TLB_L1 | PERF_MEM_TLB_L2);
    EXPECT_EQ(s.lvl_num, PERF_MEM_LVLNUM_L1);
    EXPECT_FALSE(s.remote);
    EXPECT_EQ(s.snoopx, 0);
    EXPECT_EQ(s.blk, PERF_MEM_BLK_NA);
    EXPECT_EQ(s.hops, 0);
    EXPECT_TRUE(s.is_load());
    EXPECT_FALSE(s.is_store());
    EXPECT_TRUE(s.is_l1_hit());
    EXPECT_FALSE(s.is_locked());
    EXPECT_FALSE(s.is_hitm());
}

TEST(DecodeDataSrc, L3HitLoad) {
    const DataSource s = decode_data_src(0x10668100842);
    EXPECT_EQ(s.lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3);
    EXPECT_EQ(s.lvl_num, PERF_MEM_LVLNUM_L3);
    EXPECT_TRUE(s.is_llc_hit());
    EXPECT_FALSE(s.is_l1_hit());
    EXPECT_FALSE(s.is_local_hitm());
}

TEST(DecodeDataSrc, LineFillBufferHit) {
    const DataSource s = decode_data_src(0x11868100242);
    EXPECT_EQ(s.lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_LFB);
    EXPECT_EQ(s.lvl_num, PERF_MEM_LVLNUM_LFB);
    EXPECT_TRUE(s.is_lfb_hit());
    EXPECT_FALSE(s.is_l1_hit());
}

TEST(DecodeDataSrc, BlockedAndLocked) {
    EXPECT_EQ(decode_data_src(0x20268100142).blk, PERF_MEM_BLK_DATA);
    EXPECT_EQ(decode_data_src(0x40268100142).blk, PERF_MEM_BLK_ADDR);
    const DataSource locked = decode_data_src(0x1026a100142);
    EXPECT_EQ(locked.lock, PERF_MEM_LOCK_LOCKED);
    EXPECT_TRUE(locked.is_locked());
}

TEST(DecodeDataSrc, EveryFieldRoundTripsAtItsShift) {
    const std::uint64_t raw = PERF_MEM_S(OP, STORE) | PERF_MEM_S(LVL, UNC) |
                              PERF_MEM_S(SNOOP, MISS) | PERF_MEM_S(LOCK, NA) | PERF_MEM_S(TLB, OS) |
                              PERF_MEM_S(LVLNUM, NA) | PERF_MEM_S(REMOTE, REMOTE) |
                              PERF_MEM_S(SNOOPX, FWD) | PERF_MEM_S(BLK, ADDR) | PERF_MEM_S(HOPS, 3);
    const DataSource s = decode_data_src(raw);
    EXPECT_EQ(s.raw, raw);
    EXPECT_EQ(s.op, PERF_MEM_OP_STORE);
    EXPECT_EQ(s.lvl, PERF_MEM_LVL_UNC);
    EXPECT_EQ(s.snoop, PERF_MEM_SNOOP_MISS);
    EXPECT_EQ(s.lock, PERF_MEM_LOCK_NA);
    EXPECT_EQ(s.dtlb, PERF_MEM_TLB_OS);
    EXPECT_EQ(s.lvl_num, PERF_MEM_LVLNUM_NA);
    EXPECT_TRUE(s.remote);
    EXPECT_EQ(s.snoopx, PERF_MEM_SNOOPX_FWD);
    EXPECT_EQ(s.blk, PERF_MEM_BLK_ADDR);
    EXPECT_EQ(s.hops, PERF_MEM_HOPS_3);
}

// Intel PEBS source 0x07 "L3 hit, snoop HITM": another core of this socket held it Modified.
TEST(DecodeDataSrc, LocalHitmLoad) {
    const DataSource s =
        decode_data_src(PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, L3) |
                        PERF_MEM_S(LVLNUM, L3) | PERF_MEM_S(SNOOP, HITM));
    EXPECT_TRUE(s.is_local_hitm());
    EXPECT_TRUE(s.is_hitm());
    EXPECT_FALSE(s.is_remote_hitm());
    EXPECT_FALSE(s.is_llc_hit());
}

// Intel PEBS source 0x09 "L3 miss, remote cache HITM".
TEST(DecodeDataSrc, RemoteHitmLoad) {
    const DataSource s = decode_data_src(PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) |
                                         PERF_MEM_S(LVL, REM_CCE1) | PERF_MEM_S(REMOTE, REMOTE) |
                                         PERF_MEM_S(LVLNUM, ANY_CACHE) | PERF_MEM_S(SNOOP, HITM));
    EXPECT_TRUE(s.is_remote_hitm());
    EXPECT_TRUE(s.is_hitm());
    EXPECT_FALSE(s.is_local_hitm());
    EXPECT_FALSE(s.is_remote_hit());
}

TEST(DecodeDataSrc, RemoteCleanHitIsNotHitm) {
    const DataSource s = decode_data_src(PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) |
                                         PERF_MEM_S(LVL, REM_CCE2) | PERF_MEM_S(SNOOP, HIT));
    EXPECT_TRUE(s.is_remote_hit());
    EXPECT_FALSE(s.is_hitm());
}

// Arm SPE marks cache-to-cache transfers as peer instead of HITM.
TEST(DecodeDataSrc, PeerTransfers) {
    const DataSource local = decode_data_src(PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) |
                                             PERF_MEM_S(LVL, L2) | PERF_MEM_S(SNOOPX, PEER));
    EXPECT_TRUE(local.is_local_peer());
    EXPECT_TRUE(local.is_l2_hit());
    EXPECT_FALSE(local.is_hitm());

    const DataSource remote =
        decode_data_src(PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, REM_CCE1) |
                        PERF_MEM_S(REMOTE, REMOTE) | PERF_MEM_S(SNOOPX, PEER));
    EXPECT_TRUE(remote.is_remote_peer());
    EXPECT_TRUE(remote.is_remote_hit());
    EXPECT_FALSE(remote.is_remote_hitm());
}

// POWER sets remote with hops for another core of the same node: not a remote node.
TEST(DecodeDataSrc, RemoteWithHopsIsNotARemoteNode) {
    const DataSource s =
        decode_data_src(PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, L2) |
                        PERF_MEM_S(REMOTE, REMOTE) | PERF_MEM_S(HOPS, 0) | PERF_MEM_S(SNOOP, HITM));
    EXPECT_TRUE(s.is_local_hitm());
    EXPECT_FALSE(s.is_remote_hitm());
    EXPECT_FALSE(s.is_remote_dram());
}

TEST(DecodeDataSrc, DramLoads) {
    EXPECT_TRUE(
        decode_data_src(PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, LOC_RAM))
            .is_local_dram());
    EXPECT_TRUE(
        decode_data_src(PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, REM_RAM1))
            .is_remote_dram());
    EXPECT_TRUE(decode_data_src(PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, MISS) | PERF_MEM_S(LVL, L3))
                    .is_load_miss());
}

TEST(DecodeDataSrc, Stores) {
    const DataSource hit = decode_data_src(PERF_MEM_S(OP, STORE) | PERF_MEM_S(LVL, HIT) |
                                           PERF_MEM_S(LVL, L1) | PERF_MEM_S(LOCK, LOCKED));
    EXPECT_TRUE(hit.is_store());
    EXPECT_TRUE(hit.is_store_l1_hit());
    EXPECT_TRUE(hit.is_locked());
    EXPECT_FALSE(hit.is_l1_hit()); // the load bucket
    EXPECT_FALSE(hit.is_hitm());

    const DataSource miss =
        decode_data_src(PERF_MEM_S(OP, STORE) | PERF_MEM_S(LVL, MISS) | PERF_MEM_S(LVL, L1));
    EXPECT_TRUE(miss.is_store_l1_miss());
    EXPECT_FALSE(miss.is_store_l1_hit());

    EXPECT_TRUE(decode_data_src(PERF_MEM_S(OP, STORE) | PERF_MEM_S(LVL, NA)).is_store_level_na());
    EXPECT_TRUE(decode_data_src(PERF_MEM_S(OP, STORE) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, UNC))
                    .is_store_uncached());
}

TEST(DecodeDataSrc, NotAMemoryOp) {
    const DataSource s = decode_data_src(PERF_MEM_S(OP, NA) | PERF_MEM_S(LVL, NA));
    EXPECT_FALSE(s.is_load());
    EXPECT_FALSE(s.is_store());
    EXPECT_FALSE(s.is_store_level_na());
}

// Every line of the perf script fixture: our decode agrees with the text perf printed.
TEST(DecodeDataSrc, AgreesWithPerfScriptOnTheAlderLakeFixture) {
    HITMAP_REQUIRE_SHARED(fixture,
                          "fixtures/c2c/lkml-2024-08-zixian-cai-perf-script-mem-loads-adl.txt");
    const std::regex line_re(
        R"(/:\s+[0-9a-f]+\s+([0-9a-f]+) \|OP (\w+)\|LVL ([^|]+)\|SNP ([^|]+)\|TLB ([^|]+)\|LCK (\w+)\|BLK\s+(\S+))");
    std::ifstream in(fixture);
    std::string line;
    int checked = 0;
    while (std::getline(in, line)) {
        std::smatch m;
        ASSERT_TRUE(std::regex_search(line, m, line_re)) << line;
        const DataSource s = decode_data_src(std::stoull(m[1], nullptr, 16));
        EXPECT_EQ(m[2], "LOAD");
        EXPECT_TRUE(s.is_load());
        const std::string level = m[3];
        EXPECT_EQ(s.is_l1_hit(), level == "L1 hit") << line;
        EXPECT_EQ(s.is_llc_hit(), level == "L3 hit") << line;
        EXPECT_EQ(s.is_lfb_hit(), level == "LFB/MAB hit") << line;
        EXPECT_EQ(m[4], "None");
        EXPECT_EQ(s.snoop, PERF_MEM_SNOOP_NONE);
        EXPECT_EQ(m[5], "L1 or L2 hit");
        EXPECT_EQ(s.dtlb, PERF_MEM_TLB_HIT | PERF_MEM_TLB_L1 | PERF_MEM_TLB_L2);
        EXPECT_EQ(s.is_locked(), m[6] == "Yes") << line;
        const std::string blk = m[7];
        EXPECT_EQ(s.blk, blk == "Data"   ? PERF_MEM_BLK_DATA
                         : blk == "Addr" ? PERF_MEM_BLK_ADDR
                                         : PERF_MEM_BLK_NA)
            << line;
        ++checked;
    }
    EXPECT_EQ(checked, 10);
}

} // namespace
} // namespace hitmap::perf
