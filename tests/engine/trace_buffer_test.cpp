// TraceBuffer and the probes of ProbedObject: what one access records, when nothing is
// recorded, the capacity cap cut back to whole operations, and the record encoding.
#include "engine/layout/builtin_layouts.hpp"
#include "engine/probe/probed_object.hpp"
#include "engine/probe/site.hpp"
#include "engine/probe/trace_buffer.hpp"
#include "engine/runtime/worker_pool.hpp"

#include <array>
#include <functional>
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <thread>

namespace hitmap::engine {
namespace {

#define REQUIRE_PROBES()                                                                           \
    if (!HITMAP_PROBES)                                                                            \
    GTEST_SKIP() << "probes compiled out (HITMAP_PROBES=OFF)"

const Layout& pc_layout(std::string_view v) {
    return *find_builtin_layout("page_counter", v);
}

// Runs fn on a fresh thread pinned to one allowed CPU; returns that CPU (or -1 if pinning
// is not permitted here, in which case fn still runs).
int run_pinned(const std::function<void()>& fn) {
    const int cpu = allowed_cpus().back();
    int pinned = -1;
    std::thread t([&] {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0 && sched_getcpu() == cpu)
            pinned = cpu;
        fn();
    });
    t.join();
    return pinned;
}

struct Expect {
    ObjectId object;
    FieldId field;
    AccessKind kind;
    unsigned size;
    std::uint16_t offset;
    Site site;
};

void expect_record(const TraceRecord& r, const Expect& e, int cpu) {
    EXPECT_EQ(r.object, e.object);
    EXPECT_EQ(r.field, e.field);
    EXPECT_EQ(r.kind(), e.kind);
    EXPECT_EQ(r.size(), e.size);
    EXPECT_EQ(r.offset, e.offset);
    EXPECT_EQ(r.site, static_cast<std::uint16_t>(e.site));
    if (cpu >= 0) {
        EXPECT_EQ(r.cpu(), cpu);
    }
}

TEST(TraceBuffer, EachProbedAccessAppendsOneRecord) {
    REQUIRE_PROBES();
    std::vector<TraceRecord> records;
    std::uint64_t ops = 0;
    ObjectRegistry registry;
    ProbedObject unused(registry, "unused", pc_layout("v6.0"), 0);
    ProbedObject pc(registry, "pc", pc_layout("v6.15"), 8);
    ProbedObject st(registry, "stock", *find_builtin_layout("memcg_stock_pcp", "v5.10"), 0);
    const int cpu = run_pinned([&] {
        TraceBuffer buffer(64, TraceBuffer::read_tsc());
        ThreadTraceScope scope(&buffer);
        ASSERT_EQ(current_trace_buffer(), &buffer);
        pc.store(pc::high, 100, Site::page_counter_set_limit);
        EXPECT_EQ(pc.load(pc::usage, Site::page_counter_try_charge), 0u);
        EXPECT_EQ(pc.add_return(pc::usage, 4, Site::page_counter_cancel), 4);
        EXPECT_EQ(pc.exchange(pc::min_usage, 2, Site::propagate_protected_usage), 0u);
        pc.store(pc::track_failcnt, 1, Site::page_counter_try_charge);
        st.store(stock::nr_pages, 3, Site::refill_stock);
        pc.peek(pc::usage); // untraced
        pc.poke(pc::low, 1);
        buffer.end_operation();
        records.assign(buffer.records().begin(), buffer.records().end());
        ops = buffer.traced_operations();
        EXPECT_EQ(buffer.dropped_records(), 0u);
    });
    EXPECT_EQ(ops, 1u);
    ASSERT_EQ(records.size(), 6u);
    const ObjectId p = pc.id(), s = st.id();
    EXPECT_EQ(p, 1);
    EXPECT_EQ(s, 2);
    expect_record(records[0],
                  {p, pc::high, AccessKind::store, 8, 152, Site::page_counter_set_limit}, cpu);
    expect_record(records[1], {p, pc::usage, AccessKind::load, 8, 0, Site::page_counter_try_charge},
                  cpu);
    expect_record(records[2], {p, pc::usage, AccessKind::rmw, 8, 0, Site::page_counter_cancel},
                  cpu);
    expect_record(records[3],
                  {p, pc::min_usage, AccessKind::rmw, 8, 72, Site::propagate_protected_usage}, cpu);
    expect_record(records[4],
                  {p, pc::track_failcnt, AccessKind::store, 1, 129, Site::page_counter_try_charge},
                  cpu);
    expect_record(records[5], {s, stock::nr_pages, AccessKind::store, 4, 8, Site::refill_stock},
                  cpu);
}

TEST(TraceBuffer, NothingRecordedWithoutAnInstalledBuffer) {
    REQUIRE_PROBES();
    ObjectRegistry registry;
    ProbedObject pc(registry, "pc", pc_layout("v6.1"), 0);
    TraceBuffer buffer(64, TraceBuffer::read_tsc());
    std::thread([&] {
        EXPECT_EQ(current_trace_buffer(), nullptr);
        pc.store(pc::high, 1, Site::page_counter_set_limit);
        pc.add_return(pc::usage, 1, Site::page_counter_try_charge);
        {
            ThreadTraceScope scope(&buffer);
            pc.load(pc::usage, Site::page_counter_try_charge);
            buffer.end_operation();
        }
        EXPECT_EQ(current_trace_buffer(), nullptr);
        pc.exchange(pc::min_usage, 1, Site::propagate_protected_usage);
        buffer.end_operation();
    }).join();
    // The buffer of one thread records nothing of another's accesses either.
    pc.load(pc::usage, Site::page_counter_try_charge);
    ASSERT_EQ(buffer.records().size(), 1u);
    EXPECT_EQ(buffer.records()[0].kind(), AccessKind::load);
    EXPECT_EQ(buffer.traced_operations(), 2u);
    EXPECT_EQ(buffer.dropped_records(), 0u);
}

TEST(TraceBuffer, NestedScopeRestoresTheOuterBuffer) {
    REQUIRE_PROBES();
    ObjectRegistry registry;
    ProbedObject pc(registry, "pc", pc_layout("v6.1"), 0);
    TraceBuffer buffer(64, TraceBuffer::read_tsc());
    std::thread([&] {
        ThreadTraceScope outer(&buffer);
        {
            ThreadTraceScope untraced(nullptr);
            EXPECT_EQ(current_trace_buffer(), nullptr);
            pc.load(pc::usage, Site::page_counter_try_charge);
        }
        EXPECT_EQ(current_trace_buffer(), &buffer);
        pc.store(pc::high, 1, Site::page_counter_set_limit);
        buffer.end_operation();
    }).join();
    ASSERT_EQ(buffer.records().size(), 1u);
    EXPECT_EQ(buffer.records()[0].kind(), AccessKind::store);
}

TEST(TraceBuffer, CapacityCapCutsBackToLastCompleteOperation) {
    REQUIRE_PROBES();
    ObjectRegistry registry;
    ProbedObject pc(registry, "pc", pc_layout("v6.1"), 0);
    TraceBuffer buffer(10, TraceBuffer::read_tsc());
    std::thread([&] {
        ThreadTraceScope scope(&buffer);
        // Operation k stores k to usage, min and high: three records each.
        const auto op = [&](std::uint64_t k) {
            pc.store(pc::usage, k, Site::page_counter_set_limit);
            pc.store(pc::min, k, Site::page_counter_set_limit);
            pc.store(pc::high, k, Site::page_counter_set_limit);
            buffer.end_operation();
        };
        for (std::uint64_t k = 1; k <= 3; ++k)
            op(k); // 9 records
        EXPECT_EQ(buffer.records().size(), 9u);
        EXPECT_EQ(buffer.traced_operations(), 3u);
        EXPECT_EQ(buffer.dropped_records(), 0u);
        op(4); // 1 record kept in the buffer, 2 dropped: the operation is incomplete
        EXPECT_EQ(buffer.records().size(), 9u);
        EXPECT_EQ(buffer.traced_operations(), 3u);
        EXPECT_EQ(buffer.dropped_records(), 3u);
        op(5); // all 3 dropped
        op(6);
        EXPECT_EQ(buffer.traced_operations(), 3u);
        EXPECT_EQ(buffer.dropped_records(), 9u);
    }).join();
    ASSERT_EQ(buffer.records().size(), 9u);
    for (std::size_t i = 0; i < 9; ++i) {
        EXPECT_EQ(buffer.records()[i].field,
                  (std::array<FieldId, 3>{pc::usage, pc::min, pc::high}[i % 3]));
        EXPECT_EQ(buffer.records()[i].kind(), AccessKind::store);
    }
}

TEST(TraceBuffer, FillingExactlyAtAnOperationEndKeepsThatOperation) {
    REQUIRE_PROBES();
    ObjectRegistry registry;
    ProbedObject pc(registry, "pc", pc_layout("v6.1"), 0);
    TraceBuffer buffer(4, TraceBuffer::read_tsc());
    std::thread([&] {
        ThreadTraceScope scope(&buffer);
        for (int k = 0; k < 3; ++k) {
            pc.load(pc::usage, Site::page_counter_try_charge);
            pc.load(pc::max, Site::page_counter_try_charge);
            buffer.end_operation();
        }
    }).join();
    EXPECT_EQ(buffer.records().size(), 4u);
    EXPECT_EQ(buffer.traced_operations(), 2u);
    EXPECT_EQ(buffer.dropped_records(), 2u);
}

TEST(TraceBuffer, ZeroCapacityDropsEverything) {
    REQUIRE_PROBES();
    ObjectRegistry registry;
    ProbedObject pc(registry, "pc", pc_layout("v6.1"), 0);
    TraceBuffer buffer(0, TraceBuffer::read_tsc());
    std::thread([&] {
        ThreadTraceScope scope(&buffer);
        pc.load(pc::usage, Site::page_counter_try_charge);
        buffer.end_operation();
    }).join();
    EXPECT_TRUE(buffer.records().empty());
    EXPECT_EQ(buffer.traced_operations(), 0u);
    EXPECT_EQ(buffer.dropped_records(), 1u);
}

class TraceClocks : public testing::TestWithParam<TraceClock> {};

TEST_P(TraceClocks, TscIsMonotonicWithinAThread) {
    REQUIRE_PROBES();
    ObjectRegistry registry;
    ProbedObject pc(registry, "pc", pc_layout("v6.1"), 0);
    constexpr std::size_t kOps = 5000;
    TraceBuffer buffer(kOps, TraceBuffer::read_tsc(), {}, GetParam());
    std::uint64_t elapsed = 0;
    run_pinned([&] {
        const std::uint64_t start = TraceBuffer::read_tsc(); // the scope starts the clock
        ThreadTraceScope scope(&buffer);
        for (std::size_t i = 0; i < kOps; ++i) {
            pc.add_return(pc::usage, 1, Site::page_counter_try_charge);
            buffer.end_operation();
        }
        elapsed = TraceBuffer::read_tsc() - start;
    });
    const auto records = buffer.records();
    ASSERT_EQ(records.size(), kOps);
    for (std::size_t i = 1; i < records.size(); ++i)
        ASSERT_LE(records[i - 1].tsc(), records[i].tsc()) << "record " << i;
    // Relative to the buffer's base, which was read before the first access.
    EXPECT_LE(records.back().tsc() - records.front().tsc(), elapsed);
    EXPECT_EQ(pc.peek(pc::usage), kOps);
}

INSTANTIATE_TEST_SUITE_P(BothClocks, TraceClocks,
                         testing::Values(TraceClock::access, TraceClock::operation),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(TraceBuffer, OperationClockSpreadsAnOperationsRecordsEvenlyOverIt) {
    REQUIRE_PROBES();
    ObjectRegistry registry;
    ProbedObject pc(registry, "pc", pc_layout("v6.1"), 0);
    const std::uint64_t base = TraceBuffer::read_tsc();
    TraceBuffer buffer(64, base, {}, TraceClock::operation);
    std::uint64_t before = 0, after = 0;
    run_pinned([&] {
        before = TraceBuffer::read_tsc() - base; // the scope starts the operation's interval
        ThreadTraceScope scope(&buffer);
        for (FieldId f : {pc::usage, pc::min, pc::low, pc::high})
            pc.load(f, Site::page_counter_try_charge);
        buffer.end_operation();
        after = TraceBuffer::read_tsc() - base;
    });
    const auto r = buffer.records();
    ASSERT_EQ(r.size(), 4u);
    EXPECT_LE(before, r[0].tsc());
    EXPECT_GE(after, r[3].tsc());
    const auto gap = r[1].tsc() - r[0].tsc();
    EXPECT_GT(gap, 0u) << "the records of one operation must not share a time";
    for (std::size_t i = 2; i < r.size(); ++i)
        EXPECT_NEAR(static_cast<double>(r[i].tsc() - r[i - 1].tsc()), static_cast<double>(gap),
                    1.0);
}

TEST(TraceBuffer, OperationClockTimesOwnerOnlyRecordsWithTheNextSharedOperation) {
    REQUIRE_PROBES();
    ObjectRegistry registry;
    ProbedObject pc(registry, "pc", pc_layout("v6.1"), 0);
    ProbedObject stock(registry, "stock", *find_builtin_layout("memcg_stock_pcp", "v5.10"), 0);
    stock.mark_owner_only();
    TraceBuffer buffer(64, TraceBuffer::read_tsc(), {}, TraceClock::operation);
    std::vector<TraceRecord> after_stock_only;
    run_pinned([&] {
        ThreadTraceScope scope(&buffer);
        stock.load(stock::cached, Site::consume_stock);
        stock.store(stock::nr_pages, 3, Site::consume_stock);
        buffer.end_operation(); // a stock hit: no clock read, the records wait
        const auto r = buffer.records();
        after_stock_only.assign(r.begin(), r.end());
        pc.add_return(pc::usage, 1, Site::page_counter_try_charge);
        buffer.end_operation();
    });
    ASSERT_EQ(after_stock_only.size(), 2u);
    EXPECT_EQ(after_stock_only[0].tsc(), after_stock_only[1].tsc())
        << "an owner-only operation keeps the last stamp until a shared one reads the clock";
    const auto r = buffer.records();
    ASSERT_EQ(r.size(), 3u);
    EXPECT_LT(r[0].tsc(), r[1].tsc());
    EXPECT_LT(r[1].tsc(), r[2].tsc());
    EXPECT_EQ(buffer.traced_operations(), 2u);
}

TEST(TraceBuffer, OperationClockStampsWaitingRecordsAtEveryCheckpoint) {
    REQUIRE_PROBES();
    ObjectRegistry registry;
    ProbedObject stock(registry, "stock", *find_builtin_layout("memcg_stock_pcp", "v5.10"), 0);
    stock.mark_owner_only();
    TraceBuffer buffer(128, TraceBuffer::read_tsc(), {}, TraceClock::operation);
    run_pinned([&] {
        ThreadTraceScope scope(&buffer);
        for (int op = 0; op < 64; ++op) {
            stock.load(stock::nr_pages, Site::consume_stock);
            buffer.end_operation();
        }
    });
    // A cut by time (truncate_at_tsc) needs final times at checkpoints.
    const auto r = buffer.records();
    ASSERT_EQ(r.size(), 64u);
    EXPECT_LT(r.front().tsc(), r.back().tsc());
}

TEST(TraceWindow, OpensForTheFirstPartOfEveryPeriodFromItsOrigin) {
    const TraceWindow w{1'000, 10'000, 5'000};
    EXPECT_TRUE(w.open_at(5'000));
    EXPECT_TRUE(w.open_at(5'999));
    EXPECT_FALSE(w.open_at(6'000));
    EXPECT_FALSE(w.open_at(14'999));
    EXPECT_TRUE(w.open_at(15'000));
    EXPECT_TRUE(TraceWindow{}.open_at(123)) << "period 0 means always on";
}

TEST(TraceRecord, Encoding) {
    const TraceRecord r = TraceRecord::make((std::uint64_t{0xabc} << 48) | 0x123456789abcull, 37,
                                            513, pc::children_low_usage, AccessKind::cas, 3, 104,
                                            static_cast<std::uint16_t>(Site::drain_stock));
    EXPECT_EQ(r.tsc(), 0x123456789abcull); // the TSC keeps its low 48 bits only
    EXPECT_EQ(r.cpu(), 37);
    EXPECT_EQ(r.object, 513);
    EXPECT_EQ(r.field, pc::children_low_usage);
    EXPECT_EQ(r.kind(), AccessKind::cas);
    EXPECT_EQ(r.size(), 8u);
    EXPECT_EQ(r.offset, 104);
    EXPECT_EQ(r.site, static_cast<std::uint16_t>(Site::drain_stock));
    EXPECT_EQ(TraceRecord::make(0, 0, 0, 0, AccessKind::load, 0, 0, 0).size(), 1u);
    EXPECT_EQ(TraceRecord::make(0, 0, 0, 0, AccessKind::store, 2, 0, 0).size(), 4u);
    EXPECT_EQ(TraceRecord::make(0, 0, 0, 0, AccessKind::store, 2, 0, 0).kind(), AccessKind::store);

    EXPECT_STREQ(to_string(AccessKind::load), "load");
    EXPECT_STREQ(to_string(AccessKind::rmw), "rmw");
    EXPECT_FALSE(is_write(AccessKind::load));
    EXPECT_TRUE(is_write(AccessKind::store));
    EXPECT_TRUE(is_write(AccessKind::rmw));
    EXPECT_TRUE(is_write(AccessKind::cas));
}

TEST(Site, Names) {
    EXPECT_EQ(site_name(static_cast<std::uint16_t>(Site::page_counter_try_charge)),
              "page_counter_try_charge");
    EXPECT_EQ(site_name(static_cast<std::uint16_t>(Site::propagate_protected_usage)),
              "propagate_protected_usage");
    EXPECT_EQ(site_name(static_cast<std::uint16_t>(Site::drain_stock)), "drain_stock");
    EXPECT_EQ(site_name(static_cast<std::uint16_t>(Site::memcg_high_check)),
              "try_charge_memcg.high_check");
    EXPECT_EQ(site_name(static_cast<std::uint16_t>(Site::kCount)), "?");
}

} // namespace
} // namespace hitmap::engine
