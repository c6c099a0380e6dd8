#pragma once
// Execution-driven simulation: the workload's workers run as virtual CPUs (fibers) on one host
// thread. Every probe and every access of a simulated lock to its word is a scheduling point:
// the virtual CPU furthest behind in virtual time runs next, so the engine's own branches
// (limit checks, stock drains, lock waits) follow the simulated interleaving.
//
// Virtual time: the work between two scheduling points costs what the calibration measured
// natively for that (site -> site) segment, hits included (the host's out-of-order core overlaps
// them with the work, and so does the calibration); a miss adds what the coherence model says on
// this machine (a transfer by distance, invalidations of each further sharer, DRAM on first
// touch), and a line serves one ownership transfer at a time, so requests for a hot
// line queue behind each other. A miss takes effect (the holder loses its copy) when its
// request reaches the holder: half a transfer after it was issued, and no sooner than the
// machine's hold time after the transfer it queued behind delivered the line. A spinning
// waiter sleeps until its line is written.
//
// With the machine's finite caches (cache_hierarchy.hpp) a line the coherence model says this CPU
// still holds may have left its L1: it then costs the level that still has it, or DRAM. Loads
// the engine marks overlapped (a sum over every CPU's counter) keep up to the machine's
// outstanding-miss count in flight; the next access that is not one waits for them all.
//
// A simulation is a deterministic function of the workload, its parameters, the machine and
// the calibration: nothing reads the host's clock or depends on host scheduling.
#include "collector/c2c/replay_core.hpp"
#include "collector/sim/cache_hierarchy.hpp"
#include "collector/sim/calibration.hpp"
#include "collector/sim/fiber.hpp"
#include "collector/sim/machine_description.hpp"
#include "collector/sim/run_queue.hpp"
#include "engine/runtime/simulation.hpp"
#include "engine/runtime/worker_executor.hpp"

#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace hitmap::sim {

// Where one virtual CPU's time went, in virtual ns.
struct CpuTime {
    double work_ns = 0;      // calibrated native work between scheduling points
    double thin_work_ns = 0; // of work_ns, priced by thin segments (Calibration::thin)
    double access_ns = 0;    // accesses: hits, transfers and queueing behind other transfers
    double spin_ns = 0;      // asleep in a spin-wait until its line was written
    double end_ns = 0;       // when it finished its counted operations
};

// Counted accesses that a machine with finite caches served below L1, by level (a transfer
// between CPUs is not here; a line no CPU held is a memory read), and per-CPU memory's
// transfers.
struct CacheCounts {
    std::uint64_t l2 = 0;
    std::uint64_t llc = 0;
    std::uint64_t memory = 0; // cold, or fallen out of every level
    std::uint64_t percpu_accesses = 0;
    std::uint64_t percpu_transfers = 0; // another CPU had written the line since
};

struct SimulationStats {
    double seconds = 0;                // virtual: the last CPU's end of its counted operations
    std::uint64_t accesses = 0;        // scheduling points, clean-up included
    std::uint64_t switches = 0;        // resumptions of a virtual CPU by the scheduler
    std::optional<CacheCounts> caches; // machines with finite caches only
    std::vector<CpuTime> cpus;
};

class Simulator final : public engine::Simulation, public engine::WorkerExecutor {
public:
    Simulator(MachineDescription machine, Calibration calibration);
    ~Simulator() override;

    // engine::WorkerExecutor. A duration in `stop` is virtual time. `hooks` are per host thread
    // and a simulation has one, so they are not called. Throws SimulationError on a deadlock or
    // when the machine has fewer CPUs than `threads`; an exception of a body is rethrown.
    double run(unsigned threads, const engine::StopCondition& stop,
               const engine::ThreadHooks& hooks, const engine::ObjectRegistry& objects,
               const engine::WorkerPool::Body& body) override;

    // engine::Simulation
    void access(engine::ObjectId object, engine::FieldId field, engine::AccessKind kind,
                std::uint8_t log2_size, std::uint16_t offset, std::uint16_t site) override;
    void access_percpu(unsigned unit, std::uint32_t offset, engine::AccessKind kind,
                       std::uint16_t site, bool overlapped) override;
    void wait_for_write(engine::ObjectId object, engine::FieldId field, std::uint8_t log2_size,
                        std::uint16_t offset) override;
    void outside_work(std::chrono::nanoseconds ns) override;
    std::uint64_t now_ns() const override;
    unsigned cpu() const override { return current_; }
    void end_measurement() override;

    const MachineDescription& machine() const { return machine_; }
    const Calibration& calibration() const { return calibration_; }
    const SimulationStats& stats() const { return stats_; }
    // The counted accesses as c2c tables (stall cycles at the machine's clock). After run().
    c2c::ReplayResult c2c_result();

private:
    struct VirtualCpu {
        std::unique_ptr<Fiber> fiber;
        std::uint64_t now_ps = 0;
        std::uint64_t work_ps = 0;
        std::uint64_t thin_work_ps = 0;
        std::uint64_t access_ps = 0;
        std::uint64_t spin_ps = 0;
        std::uint64_t slept_at_ps = 0;
        std::optional<std::uint64_t> end_ps;
        std::uint16_t last_site = kStartSite;
        std::vector<std::uint64_t> miss_slots_ps; // overlapped misses: when each slot frees
        std::uint64_t overlapped_until_ps = 0;    // the last overlapped miss completes
        unsigned lock_slot = 0;
        bool measuring = true;
        bool waiting = false;
    };
    struct Pricer;
    // Per-CPU memory's ownership: only lines some CPU wrote during the run are here. A read finds
    // the line's writer (a transfer) or its own caches; a write invalidates the one sharer it
    // remembers, and a CPU that read the line earlier still sees the writer's mark.
    struct PercpuLine {
        c2c::CpuIndex owner = c2c::kNoCpu; // the last writer
        c2c::CpuIndex sharer = c2c::kNoCpu;
        bool modified = false; // the owner's copy is the only valid one
    };

    // The work since the CPU's last scheduling point, then whoever is earlier runs first.
    VirtualCpu* advance(std::uint16_t site, bool overlapped);
    // Waits for the CPU's overlapped misses.
    static void drain(VirtualCpu& v);
    // What `level` costs beyond an L1 hit; `home_socket` is where DRAM holds the line.
    std::uint64_t level_ps(CacheLevel level, unsigned home_socket);
    // Looks the line up in the CPU's caches (machines with caches), counts where it was found and
    // returns what that cost beyond an L1 hit.
    std::uint64_t cache_ps(std::uint64_t line, unsigned home_socket, bool counted);

    // Lets every CPU that is earlier in virtual time run first; sets switched_ if one did.
    VirtualCpu* run_in_order();
    void wake(std::uint32_t line, std::uint64_t at_ps);
    std::uint32_t transfer_ps(unsigned a, unsigned b) const {
        return transfer_ps_[std::size_t{a} * machine_.cpus() + b];
    }
    // What a miss costs by where the line is, before any queueing.
    std::uint64_t miss_latency(const c2c::LineView& before, bool write) const;

    MachineDescription machine_;
    Calibration calibration_;
    std::vector<std::uint64_t> segment_ps_; // [previous * kSiteSlots + site]
    std::vector<bool> thin_;                // [previous * kSiteSlots + site]
    std::vector<std::uint32_t> transfer_ps_;
    std::uint64_t dram_ps_ = 0, invalidate_ps_ = 0, hold_ps_ = 0;
    std::uint64_t dram_remote_ps_ = 0, l2_ps_ = 0, llc_ps_ = 0;
    unsigned line_shift_ = 6;
    std::optional<CacheHierarchy> caches_;
    std::unordered_map<std::uint64_t, PercpuLine> percpu_lines_;

    std::optional<c2c::ReplayCore> core_;
    std::vector<std::uint64_t> busy_until_ps_;   // per line: its transfer in flight ends
    std::vector<std::vector<unsigned>> waiters_; // per line: CPUs asleep until a write
    std::vector<VirtualCpu> cpus_;
    RunQueue runnable_;
    unsigned current_ = 0;
    std::optional<unsigned> next_; // chosen by run_in_order, already out of runnable_
    bool running_ = false;
    std::uint64_t stop_ps_ = UINT64_MAX;
    std::atomic<bool>* stop_flag_ = nullptr;
    std::uint64_t miss_ps_ = 0; // the current access's miss cost, queueing included
    bool switched_ = false;
    std::uint64_t counted_ = 0;
    SimulationStats stats_;
};

} // namespace hitmap::sim
