#include "collector/sim/simulator.hpp"

#include "collector/sim/errors.hpp"
#include "engine/locks/lock_slot.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace hitmap::sim {

namespace {

std::uint64_t to_ps(double ns) {
    return static_cast<std::uint64_t>(std::llround(ns * 1000.0));
}

// Per-CPU memory's virtual addresses: far above the objects' regions, one 4 GiB unit per
// possible CPU, as the kernel's percpu allocator gives each CPU a unit of its own.
constexpr std::uint64_t kPercpuBase = std::uint64_t{1} << 48;
constexpr unsigned kPercpuUnitShift = 32;

// Objects live in the first socket's memory.
constexpr unsigned kObjectHomeSocket = 0;

} // namespace

// The replay core asks what the miss it is counting cost: the simulator priced it already.
struct Simulator::Pricer {
    const Simulator& sim;
    double stall(std::uint32_t, const c2c::Outcome&, const engine::TraceRecord&) const {
        return static_cast<double>(sim.miss_ps_) * sim.machine_.ghz / 1000.0;
    }
};

Simulator::Simulator(MachineDescription machine, Calibration calibration)
    : machine_(std::move(machine))
    , calibration_(std::move(calibration)) {
    segment_ps_.resize(kSiteSlots * kSiteSlots);
    thin_.resize(kSiteSlots * kSiteSlots);
    for (std::uint16_t prev = 0; prev < kSiteSlots; ++prev)
        for (std::uint16_t site = 0; site < kSiteSlots; ++site) {
            const std::size_t k = std::size_t{prev} * kSiteSlots + site;
            segment_ps_[k] = to_ps(calibration_.segment(prev, site));
            thin_[k] = calibration_.thin(k);
        }
    const unsigned n = machine_.cpus();
    transfer_ps_.resize(std::size_t{n} * n);
    for (unsigned a = 0; a < n; ++a)
        for (unsigned b = 0; b < n; ++b)
            transfer_ps_[std::size_t{a} * n + b] =
                static_cast<std::uint32_t>(to_ps(transfer_ns(machine_, distance(machine_, a, b))));
    hold_ps_ = to_ps(machine_.latency.hold);
    dram_ps_ = to_ps(machine_.latency.dram);
    invalidate_ps_ = to_ps(machine_.latency.invalidate_per_sharer);
    dram_remote_ps_ = to_ps(machine_.latency.dram_remote);
    l2_ps_ = to_ps(machine_.latency.l2_hit);
    llc_ps_ = to_ps(machine_.latency.llc_hit);
    line_shift_ = static_cast<unsigned>(std::countr_zero(machine_.line_size));
}

Simulator::~Simulator() = default;

std::uint64_t Simulator::miss_latency(const c2c::LineView& before, bool write) const {
    const unsigned me = current_;
    if (before.holders.none())
        return dram_ps_;
    if (before.owner != c2c::kNoCpu && before.owner != me)
        return transfer_ps(me, before.owner); // Modified or Exclusive elsewhere
    if (write) {
        // Clean copies elsewhere: each is invalidated, and the farthest answers last.
        std::uint64_t farthest = 0, others = 0;
        before.holders.for_each([&](c2c::CpuIndex c) {
            if (c != me) {
                farthest = std::max<std::uint64_t>(farthest, transfer_ps(me, c));
                ++others;
            }
        });
        return farthest + (others > 1 ? (others - 1) * invalidate_ps_ : 0);
    }
    std::uint64_t nearest = UINT64_MAX; // a clean copy: the nearest serves it
    before.holders.for_each(
        [&](c2c::CpuIndex c) { nearest = std::min<std::uint64_t>(nearest, transfer_ps(me, c)); });
    return nearest;
}

void Simulator::access(engine::ObjectId object, engine::FieldId field, engine::AccessKind kind,
                       std::uint8_t log2_size, std::uint16_t offset, std::uint16_t site) {
    if (!running_)
        return; // set-up before the workers start is not simulated
    VirtualCpu* v = advance(site, false);

    const auto cpu = static_cast<c2c::CpuIndex>(current_);
    const auto r = engine::TraceRecord::make(v->now_ps / 1000, cpu, object, field, kind, log2_size,
                                             offset, site);
    const bool write = engine::is_write(kind);
    const std::uint64_t issued = v->now_ps;
    std::uint64_t done = issued; // a hit: its cost is in the calibrated work
    std::uint32_t line;
    if (v->measuring) {
        // A miss takes effect when its request reaches the line's holder (see the header); until
        // then the holder keeps the line, so a read a few ns after its own RMW still hits.
        // CPUs whose accesses fall before that moment run first, and the miss is re-evaluated
        // after them.
        for (;;) {
            std::uint32_t miss_line = 0;
            std::uint64_t latency = 0;
            bool moves_ownership = false, cold = false;
            const bool hit = core_->hits(cpu, r, [&](std::uint32_t l, const c2c::LineView& before) {
                miss_line = l;
                latency = miss_latency(before, write);
                moves_ownership = write || before.owner != c2c::kNoCpu;
                cold = before.holders.none();
            });
            if (hit) {
                done += cache_ps(core_->line_address(core_->line_of(r)) >> line_shift_,
                                 kObjectHomeSocket, true);
                break;
            }
            const std::uint64_t start = std::max(issued, busy_until_ps_[miss_line]);
            const std::uint64_t effect = std::max(issued + latency / 2, start + hold_ps_);
            if (effect > v->now_ps) {
                v->now_ps = effect;
                v = run_in_order();
                if (switched_)
                    continue; // others ran first: the line may have moved
            }
            if (moves_ownership)
                busy_until_ps_[miss_line] = start + latency;
            done = start + latency;
            cache_ps(core_->line_address(miss_line) >> line_shift_, kObjectHomeSocket, false);
            if (cold && stats_.caches)
                ++stats_.caches->memory; // priced as DRAM by miss_latency()
            break;
        }
        miss_ps_ = done - issued;
        Pricer pricer{*this};
        line = core_->step(cpu, r, pricer);
        ++counted_;
    } else {
        line = core_->line_of(r); // clean-up: scheduled, not counted
    }
    v->now_ps = std::max(v->now_ps, done);
    v->access_ps += v->now_ps - issued;
    ++stats_.accesses;
    if (write && !waiters_[line].empty())
        wake(line, v->now_ps);
}

void Simulator::access_percpu(unsigned unit, std::uint32_t offset, engine::AccessKind kind,
                              std::uint16_t site, bool overlapped) {
    if (!running_)
        return;
    const bool write = engine::is_write(kind);
    overlapped = overlapped && !write;
    VirtualCpu* v = advance(site, overlapped);
    ++stats_.accesses;
    if (!v->measuring)
        return;
    const auto me = static_cast<c2c::CpuIndex>(current_);
    const std::uint64_t line =
        (kPercpuBase + (std::uint64_t{unit} << kPercpuUnitShift) + offset) >> line_shift_;
    const unsigned home = unit < machine_.cpus() ? place_of(machine_, unit).socket : 0;

    std::uint64_t latency = 0;
    bool transfer = false;
    const auto it = percpu_lines_.find(line);
    if (!write) {
        if (it != percpu_lines_.end() && it->second.modified && it->second.owner != me) {
            PercpuLine& s = it->second;
            latency = transfer_ps(me, s.owner);
            transfer = true;
            s.modified = false;
            s.sharer = me;
        }
    } else {
        PercpuLine& s = it != percpu_lines_.end() ? it->second : percpu_lines_[line];
        if (!(s.modified && s.owner == me)) {
            for (const c2c::CpuIndex other : {s.owner, s.sharer})
                if (other != c2c::kNoCpu && other != me) {
                    latency = std::max<std::uint64_t>(latency, transfer_ps(me, other));
                    transfer = true;
                    if (caches_)
                        caches_->invalidate(other, line);
                }
        }
        s.owner = me;
        s.sharer = c2c::kNoCpu;
        s.modified = true;
    }
    if (transfer) {
        cache_ps(line, home, false);
        if (stats_.caches)
            ++stats_.caches->percpu_transfers;
    } else {
        latency = cache_ps(line, home, true);
    }
    if (stats_.caches)
        ++stats_.caches->percpu_accesses;

    if (overlapped && latency > 0) {
        // The miss takes the slot that frees first and the CPU goes on.
        auto slot = std::min_element(v->miss_slots_ps.begin(), v->miss_slots_ps.end());
        const std::uint64_t start = std::max(v->now_ps, *slot);
        *slot = start + latency;
        v->access_ps += start - v->now_ps;
        v->now_ps = start;
        v->overlapped_until_ps = std::max(v->overlapped_until_ps, start + latency);
    } else {
        v->now_ps += latency;
        v->access_ps += latency;
    }
}

Simulator::VirtualCpu* Simulator::advance(std::uint16_t site, bool overlapped) {
    VirtualCpu& v = cpus_[current_];
    const std::size_t segment = std::size_t{v.last_site} * kSiteSlots + site;
    const std::uint64_t work = segment_ps_[segment];
    v.now_ps += work;
    v.work_ps += work;
    if (thin_[segment])
        v.thin_work_ps += work;
    v.last_site = site;
    if (!overlapped)
        drain(v);
    if (v.now_ps >= stop_ps_)
        stop_flag_->store(true, std::memory_order_relaxed);
    return run_in_order();
}

void Simulator::drain(VirtualCpu& v) {
    if (v.overlapped_until_ps > v.now_ps) {
        v.access_ps += v.overlapped_until_ps - v.now_ps;
        v.now_ps = v.overlapped_until_ps;
    }
}

std::uint64_t Simulator::level_ps(CacheLevel level, unsigned home_socket) {
    CacheCounts& c = *stats_.caches;
    switch (level) {
    case CacheLevel::l1:
        return 0;
    case CacheLevel::l2:
        ++c.l2;
        return l2_ps_;
    case CacheLevel::llc:
        ++c.llc;
        return llc_ps_;
    case CacheLevel::memory:
        ++c.memory;
        return place_of(machine_, current_).socket == home_socket ? dram_ps_ : dram_remote_ps_;
    }
    return 0;
}

std::uint64_t Simulator::cache_ps(std::uint64_t line, unsigned home_socket, bool counted) {
    if (!caches_)
        return 0;
    const CacheLevel level = caches_->access(current_, line);
    return counted ? level_ps(level, home_socket) : 0;
}

void Simulator::wait_for_write(engine::ObjectId object, engine::FieldId field,
                               std::uint8_t log2_size, std::uint16_t offset) {
    if (!running_)
        return;
    drain(cpus_[current_]);
    const auto r = engine::TraceRecord::make(0, 0, object, field, engine::AccessKind::load,
                                             log2_size, offset, kStartSite);
    const std::uint32_t line = core_->line_of(r);
    VirtualCpu& v = cpus_[current_];
    v.waiting = true;
    v.slept_at_ps = v.now_ps;
    waiters_[line].push_back(current_);
    v.fiber->suspend(); // not runnable until wake() puts it back
}

void Simulator::wake(std::uint32_t line, std::uint64_t at_ps) {
    for (const unsigned w : waiters_[line]) {
        VirtualCpu& v = cpus_[w];
        v.now_ps = std::max(v.now_ps, at_ps);
        v.spin_ps += v.now_ps - v.slept_at_ps;
        v.waiting = false;
        runnable_.push(v.now_ps, w);
    }
    waiters_[line].clear();
}

Simulator::VirtualCpu* Simulator::run_in_order() {
    VirtualCpu& v = cpus_[current_];
    switched_ = runnable_.earlier_than(v.now_ps, current_);
    if (switched_) {
        next_ = runnable_.replace_top(v.now_ps, current_);
        v.fiber->suspend(); // resumed when it is the earliest again
    }
    return &v;
}

void Simulator::outside_work(std::chrono::nanoseconds ns) {
    if (!running_)
        return;
    VirtualCpu& v = cpus_[current_];
    drain(v);
    const auto ps = static_cast<std::uint64_t>(ns.count()) * 1000;
    v.now_ps += ps;
    v.work_ps += ps;
    if (v.now_ps >= stop_ps_)
        stop_flag_->store(true, std::memory_order_relaxed);
}

std::uint64_t Simulator::now_ns() const {
    return running_ ? cpus_[current_].now_ps / 1000 : 0;
}

void Simulator::end_measurement() {
    if (!running_)
        return;
    VirtualCpu& v = cpus_[current_];
    drain(v);
    v.measuring = false;
    v.end_ps = v.now_ps;
}

double Simulator::run(unsigned threads, const engine::StopCondition& stop,
                      const engine::ThreadHooks&, const engine::ObjectRegistry& objects,
                      const engine::WorkerPool::Body& body) {
    if (threads > (1u << RunQueue::kCpuBits))
        throw SimulationError(fmt::format("{} virtual CPUs: the simulator runs at most {}", threads,
                                          1u << RunQueue::kCpuBits));
    if (threads > machine_.cpus())
        throw SimulationError(fmt::format("machine {} has {} CPUs; {} threads asked for",
                                          machine_.name, machine_.cpus(), threads));
    c2c::ReplayConfig replay;
    replay.line_size = machine_.line_size;
    core_.emplace(objects.objects(), replay);
    for (unsigned c = 0; c < threads; ++c)
        core_->add_cpu(c); // dense index = virtual CPU
    busy_until_ps_.assign(core_->line_count(), 0);
    waiters_.assign(core_->line_count(), {});
    stats_ = {};
    counted_ = 0;
    stop_ps_ =
        stop.duration ? static_cast<std::uint64_t>(stop.duration->count()) * 1000 : UINT64_MAX;
    std::atomic<bool> stop_flag{false};
    stop_flag_ = &stop_flag;

    if (machine_.caches) {
        caches_.emplace(machine_);
        stats_.caches = CacheCounts{};
    }
    percpu_lines_.clear();

    cpus_.clear();
    cpus_.resize(threads);
    for (unsigned slot = 0; slot < threads; ++slot) {
        cpus_[slot].miss_slots_ps.assign(machine_.caches ? machine_.caches->outstanding_misses : 1,
                                         0);
        cpus_[slot].lock_slot = engine::current_lock_slot();
        cpus_[slot].fiber = std::make_unique<Fiber>([this, slot, &body, &stop_flag] {
            body(slot, stop_flag);
            VirtualCpu& v = cpus_[slot];
            drain(v);
            if (!v.end_ps)
                v.end_ps = v.now_ps;
        });
        runnable_.push(0, slot);
    }

    const engine::SimulationScope scope(this);
    const unsigned host_slot = engine::current_lock_slot();
    running_ = true;
    try {
        while (next_ || !runnable_.empty()) {
            current_ = next_ ? *next_ : runnable_.pop();
            next_.reset();
            VirtualCpu& v = cpus_[current_];
            engine::set_current_lock_slot(v.lock_slot);
            ++stats_.switches;
            v.fiber->resume();
            v.lock_slot = engine::current_lock_slot();
            if (stop.cancel && stop.cancel->load(std::memory_order_relaxed))
                stop_flag.store(true, std::memory_order_relaxed);
        }
        std::vector<unsigned> stuck;
        for (unsigned c = 0; c < threads; ++c)
            if (cpus_[c].waiting)
                stuck.push_back(c);
        if (!stuck.empty())
            throw SimulationError(
                fmt::format("deadlock: virtual CPUs {} wait for writes that no CPU will make",
                            fmt::join(stuck, ", ")));
    } catch (...) {
        running_ = false;
        engine::set_current_lock_slot(host_slot);
        runnable_.clear();
        next_.reset();
        cpus_.clear(); // unwinds the fibers that did not finish
        throw;
    }
    running_ = false;
    engine::set_current_lock_slot(host_slot);

    double last_end = 0;
    for (const VirtualCpu& v : cpus_) {
        CpuTime t;
        t.work_ns = static_cast<double>(v.work_ps) / 1000.0;
        t.thin_work_ns = static_cast<double>(v.thin_work_ps) / 1000.0;
        t.access_ns = static_cast<double>(v.access_ps) / 1000.0;
        t.spin_ns = static_cast<double>(v.spin_ps) / 1000.0;
        t.end_ns = static_cast<double>(v.end_ps.value_or(v.now_ps)) / 1000.0;
        last_end = std::max(last_end, t.end_ns);
        stats_.cpus.push_back(t);
    }
    stats_.seconds = last_end / 1e9;
    stop_flag_ = nullptr;
    return stats_.seconds;
}

c2c::ReplayResult Simulator::c2c_result() {
    if (!core_)
        throw SimulationError("no simulation has run");
    return core_->finish(counted_, c2c::ModelCpus::thread, machine_.latency.l1_hit * machine_.ghz);
}

} // namespace hitmap::sim
