#include "collector/perf/data_source.hpp"
#include "collector/perf/spe_data_source.hpp"
#include "tests/perf/fake_spe.hpp"

#include <array>
#include <gtest/gtest.h>
#include <linux/perf_event.h>

namespace hitmap::perf {
namespace {

SpeRecord spe_load_record(std::optional<std::uint16_t> source, std::uint64_t events = 0) {
    SpeRecord r;
    r.op = SpeOperation::load;
    r.events = events;
    r.data_source = source;
    r.pc = 0x400abc;
    r.data_address = 0x7f0000001040;
    r.total_latency = 41;
    return r;
}

SpeRecord spe_store_record(std::uint64_t events) {
    SpeRecord r = spe_load_record(std::nullopt, events);
    r.op = SpeOperation::store;
    return r;
}

DataSource decoded_src(const SpeRecord& r, SpeDataSourceEncoding encoding) {
    const auto raw = spe_data_src(r, encoding);
    EXPECT_TRUE(raw.has_value());
    return decode_data_src(raw.value_or(0));
}

constexpr auto neoverse = SpeDataSourceEncoding::common;
const std::uint64_t l1_hit_events = spe_event_bit(SpeEvent::l1d_access); // no refill

// MIDR_EL1 values as sysfs prints them: implementer, variant, architecture 0xf, part, revision.
constexpr std::uint64_t midr_neoverse_n1_r3p1 = 0x413fd0c1;
constexpr std::uint64_t midr_neoverse_v2_r0p0 = 0x410fd4f0;
constexpr std::uint64_t midr_cortex_a55 = 0x412fd050;
constexpr std::uint64_t midr_ampereone_a1a = 0xc00fac40;

TEST(SpeDataSourceEncoding, ByMidrWhenAllCoresAgree) {
    const std::array servers{midr_neoverse_n1_r3p1, midr_neoverse_n1_r3p1, midr_neoverse_v2_r0p0};
    EXPECT_EQ(spe_data_source_encoding(servers), SpeDataSourceEncoding::common);
    const std::array ampere{midr_ampereone_a1a};
    EXPECT_EQ(spe_data_source_encoding(ampere), SpeDataSourceEncoding::ampereone);
    const std::array mixed{midr_neoverse_n1_r3p1, midr_ampereone_a1a};
    EXPECT_EQ(spe_data_source_encoding(mixed), SpeDataSourceEncoding::unknown);
    const std::array little{midr_cortex_a55};
    EXPECT_EQ(spe_data_source_encoding(little), SpeDataSourceEncoding::unknown);
    EXPECT_EQ(spe_data_source_encoding({}), SpeDataSourceEncoding::unknown);
}

// The common (Neoverse) codes, each as perf c2c counts it.
TEST(SpeDataSrc, CommonEncodingLoads) {
    const DataSource l1 = decoded_src(spe_load_record(0x0, l1_hit_events), neoverse);
    EXPECT_TRUE(l1.is_load());
    EXPECT_TRUE(l1.is_l1_hit());
    EXPECT_EQ(l1.lvl_num, PERF_MEM_LVLNUM_L1);
    EXPECT_EQ(l1.snoop, PERF_MEM_SNOOP_NONE);

    const DataSource l2 = decoded_src(spe_load_record(0x8), neoverse);
    EXPECT_TRUE(l2.is_l2_hit());
    EXPECT_FALSE(l2.is_local_peer());

    const DataSource peer_core = decoded_src(spe_load_record(0x9), neoverse);
    EXPECT_TRUE(peer_core.is_local_peer());
    EXPECT_FALSE(peer_core.is_hitm());
    EXPECT_EQ(peer_core.lvl_num, PERF_MEM_LVLNUM_L2);

    for (std::uint16_t cluster : {0xa, 0xc}) {
        const DataSource s = decoded_src(spe_load_record(cluster), neoverse);
        EXPECT_TRUE(s.is_local_peer()) << cluster;
        EXPECT_EQ(s.lvl_num, PERF_MEM_LVLNUM_L3) << cluster;
    }

    const DataSource slc = decoded_src(spe_load_record(0xb), neoverse);
    EXPECT_TRUE(slc.is_llc_hit());
    EXPECT_EQ(slc.snoop, PERF_MEM_SNOOP_HIT);

    const DataSource remote =
        decoded_src(spe_load_record(0xd, spe_event_bit(SpeEvent::remote_access)), neoverse);
    EXPECT_TRUE(remote.is_remote_peer());
    EXPECT_TRUE(remote.is_remote_hit());
    EXPECT_FALSE(remote.is_remote_dram());

    const DataSource dram =
        decoded_src(spe_load_record(0xe, spe_event_bit(SpeEvent::llc_miss)), neoverse);
    EXPECT_TRUE(dram.is_local_dram());
    EXPECT_FALSE(dram.is_remote_dram());
}

// Events 21 and 23 turn a peer transfer into a HITM when the line was modified there.
TEST(SpeDataSrc, SnoopedModifiedPeerLineIsHitm) {
    const std::uint64_t modified =
        spe_event_bit(SpeEvent::data_snooped) | spe_event_bit(SpeEvent::cache_data_modified);
    const DataSource core = decoded_src(spe_load_record(0x9, modified), neoverse);
    EXPECT_TRUE(core.is_local_hitm());
    EXPECT_TRUE(core.is_hitm());

    const DataSource clean =
        decoded_src(spe_load_record(0x9, spe_event_bit(SpeEvent::data_snooped)), neoverse);
    EXPECT_EQ(clean.snoop, PERF_MEM_SNOOP_HIT);
    EXPECT_FALSE(clean.is_hitm());

    const DataSource remote = decoded_src(spe_load_record(0xd, modified), neoverse);
    EXPECT_TRUE(remote.is_remote_hitm());

    // Without the events nothing is known about the snoop.
    EXPECT_EQ(decoded_src(spe_load_record(0x9), neoverse).snoop, PERF_MEM_SNOOP_NA);
}

// Neoverse records say nothing about stores' levels; where the encoding is unknown the events
// give L1 hit or miss.
TEST(SpeDataSrc, Stores) {
    const DataSource no_level = decoded_src(spe_store_record(l1_hit_events), neoverse);
    EXPECT_TRUE(no_level.is_store());
    EXPECT_TRUE(no_level.is_store_level_na());
    EXPECT_FALSE(no_level.is_store_l1_hit());

    const auto unknown = SpeDataSourceEncoding::unknown;
    EXPECT_TRUE(decoded_src(spe_store_record(l1_hit_events), unknown).is_store_l1_hit());
    const DataSource miss =
        decoded_src(spe_store_record(l1_hit_events | spe_event_bit(SpeEvent::l1d_refill)), unknown);
    EXPECT_TRUE(miss.is_store_l1_miss());
    EXPECT_TRUE(decoded_src(spe_store_record(0), unknown).is_store_level_na());
}

// An unknown encoding (or an unknown code) leaves the level to the events.
TEST(SpeDataSrc, LevelsFromEventsAlone) {
    const auto unknown = SpeDataSourceEncoding::unknown;
    EXPECT_TRUE(
        decoded_src(spe_load_record(0x9, l1_hit_events), unknown).is_l1_hit()); // code ignored
    EXPECT_TRUE(
        decoded_src(spe_load_record(0x5, l1_hit_events), neoverse).is_l1_hit()); // code unknown
    const std::uint64_t l1_miss = l1_hit_events | spe_event_bit(SpeEvent::l1d_refill);
    EXPECT_TRUE(decoded_src(spe_load_record(std::nullopt,
                                            l1_miss | spe_event_bit(SpeEvent::recently_fetched)),
                            unknown)
                    .is_lfb_hit());
    EXPECT_TRUE(
        decoded_src(spe_load_record(std::nullopt, l1_miss | spe_event_bit(SpeEvent::l2d_access)),
                    unknown)
            .is_l2_hit());
    EXPECT_TRUE(
        decoded_src(spe_load_record(std::nullopt, l1_miss | spe_event_bit(SpeEvent::llc_access)),
                    unknown)
            .is_llc_hit());
    const DataSource llc_miss =
        decoded_src(spe_load_record(std::nullopt, l1_miss | spe_event_bit(SpeEvent::llc_access) |
                                                      spe_event_bit(SpeEvent::llc_miss)),
                    unknown);
    EXPECT_TRUE(llc_miss.is_load_miss());
    EXPECT_EQ(llc_miss.lvl, PERF_MEM_LVL_L3 | PERF_MEM_LVL_MISS);
    const DataSource nothing = decoded_src(spe_load_record(std::nullopt), unknown);
    EXPECT_EQ(nothing.lvl, PERF_MEM_LVL_NA);
    EXPECT_EQ(nothing.lvl_num, PERF_MEM_LVLNUM_NA);
}

TEST(SpeDataSrc, AmpereOneCodesMapOntoCommonOnes) {
    const auto ampere = SpeDataSourceEncoding::ampereone;
    EXPECT_TRUE(decoded_src(spe_load_record(0x8, l1_hit_events), ampere).is_l1_hit());
    EXPECT_TRUE(decoded_src(spe_load_record(0x9), ampere).is_l2_hit());
    EXPECT_TRUE(decoded_src(spe_load_record(0x0), ampere).is_local_peer());
    EXPECT_TRUE(decoded_src(spe_load_record(0x3), ampere).is_llc_hit());
    EXPECT_TRUE(decoded_src(spe_load_record(0x5), ampere).is_remote_peer());
    EXPECT_TRUE(decoded_src(spe_load_record(0x7), ampere).is_local_dram());
}

TEST(SpeDataSrc, TlbFromEvents) {
    const std::uint64_t walk =
        spe_event_bit(SpeEvent::tlb_access) | spe_event_bit(SpeEvent::tlb_walk);
    EXPECT_EQ(decoded_src(spe_load_record(0x0, walk), neoverse).dtlb,
              PERF_MEM_TLB_WK | PERF_MEM_TLB_MISS);
    EXPECT_EQ(decoded_src(spe_load_record(0x0, spe_event_bit(SpeEvent::tlb_access)), neoverse).dtlb,
              PERF_MEM_TLB_WK | PERF_MEM_TLB_HIT);
    EXPECT_EQ(decoded_src(spe_load_record(0x0), neoverse).dtlb, 0);
}

TEST(SpeMemorySample, LoadsAndStoresWithAnAddressOnly) {
    const auto sample = spe_memory_sample(spe_load_record(0x9), neoverse);
    ASSERT_TRUE(sample);
    EXPECT_EQ(sample->ip, 0x400abcu);
    EXPECT_EQ(sample->addr, 0x7f0000001040u);
    EXPECT_EQ(sample->weight, 41u);
    EXPECT_TRUE(decode_data_src(sample->data_src).is_local_peer());

    SpeRecord branch = spe_load_record(std::nullopt);
    branch.op = SpeOperation::branch;
    EXPECT_FALSE(spe_data_src(branch, neoverse));
    EXPECT_FALSE(spe_memory_sample(branch, neoverse));
    SpeRecord no_address = spe_load_record(0x0);
    no_address.data_address.reset();
    EXPECT_FALSE(spe_memory_sample(no_address, neoverse));
}

} // namespace
} // namespace hitmap::perf
