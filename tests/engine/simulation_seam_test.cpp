// The seam a simulated machine runs the engine through: traced probes and simulated locks
// announce every access to the Simulation, in order, and lock statistics run on its virtual
// clock and CPUs. A scripted Simulation stands in for the simulator, so every count is exact.
#include "engine/locks/lock_class.hpp"
#include "engine/memcg/res_counter.hpp"
#include "engine/runtime/busy_work.hpp"
#include "engine/runtime/simulation.hpp"

#include <functional>
#include <gtest/gtest.h>
#include <vector>

namespace hitmap::engine {
namespace {

struct Announced {
    ObjectId object;
    FieldId field;
    AccessKind kind;
    bool operator==(const Announced&) const = default;
};

// Each access takes 10 virtual ns; a spin-wait runs the script's "other CPU" instead.
class ScriptedSimulation : public Simulation {
public:
    void access(ObjectId object, FieldId field, AccessKind kind, std::uint8_t, std::uint16_t,
                std::uint16_t) override {
        accesses.push_back({object, field, kind});
        now += 10;
    }
    void access_percpu(unsigned, std::uint32_t, AccessKind, std::uint16_t, bool) override {
        now += 10;
    }
    void wait_for_write(ObjectId, FieldId, std::uint8_t, std::uint16_t) override {
        ++waits;
        now += 100;
        ASSERT_TRUE(on_wait) << "a spin-wait nobody will end";
        auto other = std::exchange(on_wait, nullptr);
        other();
    }
    void outside_work(std::chrono::nanoseconds ns) override {
        now += static_cast<std::uint64_t>(ns.count());
    }
    std::uint64_t now_ns() const override { return now; }
    unsigned cpu() const override { return running; }
    void end_measurement() override {}

    std::vector<Announced> accesses;
    std::uint64_t now = 0;
    unsigned running = 0;
    unsigned waits = 0;
    std::function<void()> on_wait;
};

// A struct res_counter whose lock belongs to `lock_class`, and the scripted simulation.
class SimulationSeam : public ::testing::Test {
protected:
    ObjectRegistry registry;
    ScriptedSimulation sim;
    LockClass lock_class{"&counter->lock", LockKind::spinlock, 1};
    ResCounter counter{registry, "res", lock_class, nullptr};
};

TEST_F(SimulationSeam, TracedProbesAnnounceAndTheProbeFreeCopyDoesNot) {
    SimulationScope scope(&sim);
    counter.load<false>(rc::usage, Site::res_counter_charge);
    EXPECT_TRUE(sim.accesses.empty());
    counter.load<true>(rc::usage, Site::res_counter_charge);
    EXPECT_EQ(sim.accesses, (std::vector<Announced>{{counter.id(), rc::usage, AccessKind::load}}));
}

TEST_F(SimulationSeam, AnUncontendedChargeAnnouncesTheTicketLockAndTheCounterInOrder) {
    {
        SimulationScope scope(&sim);
        ASSERT_TRUE(counter.charge(4096));
    }
    const ObjectId o = counter.id();
    const std::vector<Announced> expected{
        {o, rc::lock, AccessKind::load},       // ticket try: is the lock free?
        {o, rc::lock, AccessKind::cas},        // ... take the next ticket
        {o, rc::usage, AccessKind::load},      // res_counter_charge_locked
        {o, rc::limit, AccessKind::load},      //
        {o, rc::usage, AccessKind::store},     //
        {o, rc::max_usage, AccessKind::load},  //
        {o, rc::max_usage, AccessKind::store}, //
        {o, rc::lock, AccessKind::store},      // the release
        {o, rc::parent, AccessKind::load},     // the walk's next level: none
    };
    EXPECT_EQ(sim.accesses, expected);
    const LockClassReport report = lock_class.report();
    EXPECT_EQ(report.acquisitions, 1u);
    EXPECT_EQ(report.contentions, 0u);
    // Held from before the try (t = 0) to just before the release's store (t = 70), in virtual
    // nanoseconds.
    EXPECT_EQ(report.hold.total_ns, 70u);
}

TEST_F(SimulationSeam, AContendedTicketLockWaitsForTheWriteAndCountsVirtualTime) {
    SimulationScope scope(&sim);
    TicketSpinlock lock(lock_class);
    lock.bind_word(counter, rc::lock);
    sim.running = 1;
    lock.lock(Site::res_counter_charge); // CPU 1 holds it
    sim.running = 0;
    sim.on_wait = [&] { // CPU 1 releases while CPU 0 spins
        sim.running = 1;
        lock.unlock(Site::res_counter_charge);
        sim.running = 0;
    };
    sim.accesses.clear();
    const std::uint64_t before = sim.now;
    lock.lock(Site::res_counter_charge);
    lock.unlock(Site::res_counter_charge);
    const ObjectId o = counter.id();
    const std::vector<Announced> expected{
        {o, rc::lock, AccessKind::load},  // try: held
        {o, rc::lock, AccessKind::rmw},   // take a ticket
        {o, rc::lock, AccessKind::load},  // not our turn: wait for a write
        {o, rc::lock, AccessKind::store}, // CPU 1's release
        {o, rc::lock, AccessKind::load},  // our turn
        {o, rc::lock, AccessKind::store}, // our release
    };
    EXPECT_EQ(sim.accesses, expected);
    EXPECT_EQ(sim.waits, 1u);
    const LockClassReport report = lock_class.report();
    EXPECT_EQ(report.contentions, 1u);
    EXPECT_EQ(report.con_bounces, 1u); // last held on virtual CPU 1
    // From the failed try (t = before + 10) to the acquisition: two accesses, the wait's 100 ns
    // and CPU 1's release.
    EXPECT_EQ(report.wait.total_ns, 10u + 10u + 100u + 10u + 10u);
    EXPECT_EQ(sim.now - before, 160u);
}

// Work outside the model costs exactly its parameter under a simulation, without running.
TEST_F(SimulationSeam, BusyWorkIsItsTargetInVirtualTime) {
    const BusyWork work{std::chrono::microseconds(3)};
    SimulationScope scope(&sim);
    work.run();
    EXPECT_EQ(sim.now, 3000u);
    EXPECT_TRUE(sim.accesses.empty());
}

} // namespace
} // namespace hitmap::engine
