#include "collector/sim/host_machine.hpp"

#include "collector/sim/errors.hpp"
#include "collector/sim/simulator.hpp"
#include "engine/probe/probed_object.hpp"
#include "engine/runtime/worker_pool.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fmt/format.h>
#include <pthread.h>
#include <thread>

namespace hitmap::sim {

namespace {

constexpr std::uint32_t kHandoffs = 20000; // per native round
constexpr int kRounds = 9;

} // namespace

double measure_host_handoff_ns() {
    const std::vector<int> cpus = engine::allowed_cpus();
    if (cpus.size() < 2)
        throw MachineError("machine host: its transfer latency needs two CPUs for a ping-pong; "
                           "this process may use one");
    struct alignas(64) Line {
        std::atomic<std::uint32_t> turn{0};
    } line;
    auto pin = [](int cpu) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
    };
    std::vector<double> per_handoff;
    for (int round = 0; round < kRounds; ++round) {
        line.turn.store(0);
        // Each side waits for its turn and passes the line on: every handoff moves it once.
        // Two threads of their own, so the caller's affinity stays as it was.
        auto side = [&](int cpu, std::uint32_t first) {
            pin(cpu);
            for (std::uint32_t i = first; i < 2 * kHandoffs; i += 2) {
                while (line.turn.load(std::memory_order_acquire) != i)
                    ;
                line.turn.store(i + 1, std::memory_order_release);
            }
        };
        const auto begin = std::chrono::steady_clock::now();
        { std::jthread a(side, cpus[0], 0u), b(side, cpus[1], 1u); }
        const double ns =
            std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - begin)
                .count();
        per_handoff.push_back(ns / (2.0 * kHandoffs));
    }
    // The fastest round: a busy host (or a preempted vCPU) only ever slows a round down, as in
    // the calibrator's fastest native repeat.
    return *std::min_element(per_handoff.begin(), per_handoff.end());
}

namespace {

// The same ping-pong on two virtual CPUs of `m`: virtual ns per handoff.
double simulated_handoff_ns(const MachineDescription& m) {
    static const engine::StructType type{"ping_pong", {"turn"}};
    engine::Layout layout{&type, "host probe", 8, 8, {engine::FieldPlacement{0, 8}}};
    constexpr std::uint32_t kSimulated = 200;
    constexpr engine::FieldId kTurn = 0;
    Simulator sim(m, uniform_calibration(0));
    engine::ObjectRegistry registry;
    engine::ProbedObject line(registry, "turn", layout, 0);
    const engine::SimulationScope scope(&sim);
    const double seconds =
        sim.run(2, {}, {}, registry, [&](unsigned cpu, const std::atomic<bool>&) {
            for (std::uint32_t i = cpu; i < 2 * kSimulated; i += 2) {
                while (line.load(kTurn, engine::kUnmodelledSite) != i)
                    line.wait_for_write(sim, kTurn);
                line.store(kTurn, i + 1, engine::kUnmodelledSite);
            }
        });
    return seconds * 1e9 / (2.0 * kSimulated);
}

MachineDescription with_transfer(MachineDescription m, double ns) {
    m.latency.same_llc = m.latency.same_socket = m.latency.remote_socket = ns;
    return m;
}

} // namespace

double transfer_for_handoff(const MachineDescription& topology, double handoff_ns) {
    // A simulated handoff is linear in the transfer latency (a load miss and an upgrade, plus
    // the hold): two points give the line, which is solved for the measured handoff.
    constexpr double kLow = 100, kHigh = 200;
    const double low = simulated_handoff_ns(with_transfer(topology, kLow));
    const double high = simulated_handoff_ns(with_transfer(topology, kHigh));
    const double slope = (high - low) / (kHigh - kLow);
    const double fitted = kLow + (handoff_ns - low) / slope;
    return std::max(fitted, topology.latency.l1_hit);
}

MachineDescription host_machine() {
    const double handoff = measure_host_handoff_ns();
    MachineDescription m;
    m.name = "host";
    m.cores_per_socket = static_cast<unsigned>(engine::allowed_cpus().size());
    m.description =
        fmt::format("this machine: {} CPUs taken as one socket and one LLC", m.cores_per_socket);
    const double transfer = transfer_for_handoff(m, handoff);
    m = with_transfer(std::move(m), transfer);
    m.latency_source = fmt::format(
        "transfer {:.1f} ns: the latency under which the simulator runs a load-spin/store "
        "ping-pong in the {:.1f} ns per handoff measured here (fastest of {} rounds; a handoff "
        "is a load miss and an upgrade); L1, DRAM and invalidation are typical values",
        transfer, handoff, kRounds);
    return m;
}

} // namespace hitmap::sim
