#pragma once
// The seam through which a simulated machine runs the engine's own code. While a simulation
// runs the workers, every probe and every access of a simulated lock to its word calls in
// here; the simulator decides when that access happens in virtual time (resuming whichever
// virtual CPU is furthest behind) and what it costs, so the engine's branches follow the
// simulated interleaving. Nothing here knows the simulator's machine model.
#include "engine/layout/layout.hpp"
#include "engine/probe/object_registry.hpp"
#include "engine/probe/trace_record.hpp"

#include <chrono>
#include <cstdint>

namespace hitmap::engine {

class Simulation {
public:
    virtual ~Simulation() = default;

    // The running virtual CPU reaches an access; it returns when the access may be made.
    virtual void access(ObjectId object, FieldId field, AccessKind kind, std::uint8_t log2_size,
                        std::uint16_t offset, std::uint16_t site) = 0;
    // The running virtual CPU reaches an access to per-CPU memory (engine/memcg/percpu_area.hpp):
    // CPU `unit`'s copy, `offset` bytes into that unit. Such memory is too large for per-field
    // tables (1,000 memcgs x 256 CPUs x 1 KiB of counters), so it has no object or field: a
    // simulation prices it through the machine's caches and a light ownership model, and traces
    // leave it out. `overlapped`: nothing waits for the loaded value before the next access (a
    // sum over every CPU's copy), so its miss may overlap the misses after it.
    virtual void access_percpu(unsigned unit, std::uint32_t offset, AccessKind kind,
                               std::uint16_t site, bool overlapped) = 0;
    // A spinning waiter whose copy of the line holding (object, field) is valid: it sleeps until
    // another CPU writes that line, as a pause loop on a cached word does.
    virtual void wait_for_write(ObjectId object, FieldId field, std::uint8_t log2_size,
                                std::uint16_t offset) = 0;
    // The running virtual CPU spends `ns` in work the engine does not model (a workload's
    // stand-in for the rest of a path, BusyWork): virtual time advances by exactly that, and a
    // calibration leaves it out, so the figure is the parameter, not a measurement of it.
    virtual void outside_work(std::chrono::nanoseconds ns) = 0;
    // Virtual nanoseconds since the simulated run began, and the running virtual CPU.
    virtual std::uint64_t now_ns() const = 0;
    virtual unsigned cpu() const = 0;
    // The running virtual CPU has done its counted operations; what follows is clean-up. Its
    // accesses are still scheduling points (a lock another CPU holds must still be waited
    // for) but are no longer counted.
    virtual void end_measurement() = 0;
};

namespace detail {
inline thread_local Simulation* t_simulation = nullptr;
}

// Null unless the calling code runs inside a simulation.
inline Simulation* current_simulation() {
    return detail::t_simulation;
}

// Installs a simulation for the calling thread: around a whole workload run, so set-up code
// (a lock's initialising CPU) already sees virtual CPUs. Scopes nest.
class SimulationScope {
public:
    explicit SimulationScope(Simulation* sim)
        : previous_(detail::t_simulation) {
        detail::t_simulation = sim;
    }
    ~SimulationScope() { detail::t_simulation = previous_; }
    SimulationScope(const SimulationScope&) = delete;
    SimulationScope& operator=(const SimulationScope&) = delete;

private:
    Simulation* previous_;
};

} // namespace hitmap::engine
