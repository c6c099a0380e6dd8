#pragma once
// A description of the machine a simulation runs on: topology, the latency of moving a line by
// distance, and where those figures come from. Descriptions are JSON (machine_to_json is the
// format); the built-ins are the seeds' machines and `host`, measured here.
//
// CPUs are numbered as Linux numbers an Intel server: first one thread of every core, socket by
// socket, then the second threads (so CPUs 0..cores-1 are distinct cores, and a run with half
// the CPUs uses no SMT sibling).
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::sim {

struct LatencyNs {
    // A hit costs what it cost natively: it is inside the calibrated work. This figure only
    // prices hits in the c2c tables' stall cycles.
    double l1_hit = 1.5;
    double smt_sibling = 8;     // from the other hyperthread of the same core (shared L1/L2)
    double same_llc = 45;       // from another core behind the same last-level cache
    double same_socket = 45;    // from another LLC group of the socket (an AMD CCX)
    double remote_socket = 135; // from the other socket
    double dram = 85;           // first touch: from memory
    double dram_remote = 140;   // from the other socket's memory
    // Where a CPU finds a line it owns after the line left its L1 (machines with caches only).
    double l2_hit = 4.5;
    double llc_hit = 15;
    double invalidate_per_sharer = 2; // each further clean copy a store invalidates
    // After a line arrives, its new owner keeps it at least this long before a request queued
    // behind the transfer takes it: the accesses already in flight behind the one that missed
    // complete first.
    double hold = 5;
    bool operator==(const LatencyNs&) const = default;
};

// Finite caches: per core an L1d and an L2, per LLC group a shared last-level cache
// (collector/sim/cache_hierarchy.hpp). Without them a simulated CPU keeps every line it ever
// held, and only coherence misses cost anything.
struct CacheCapacities {
    std::uint32_t l1d_kib = 0;
    std::uint32_t l2_kib = 0;
    std::uint32_t llc_kib = 0; // per LLC group
    // L1 misses one core keeps in flight for loads whose values nothing waits on (a sum over
    // every CPU's counter): its miss-status holding registers or fill buffers.
    std::uint32_t outstanding_misses = 10;
    bool operator==(const CacheCapacities&) const = default;
};

struct MachineDescription {
    std::string name;
    std::string description;
    unsigned sockets = 1;
    unsigned cores_per_socket = 1;
    unsigned threads_per_core = 1;
    unsigned llc_groups_per_socket = 1;
    unsigned line_size = 64;
    double ghz = 3.0; // converts latencies to the cycles the c2c tables report
    LatencyNs latency;
    std::string latency_source; // where the figures come from
    std::optional<CacheCapacities> caches;

    unsigned cpus() const { return sockets * cores_per_socket * threads_per_core; }
    bool operator==(const MachineDescription&) const = default;
};

enum class Distance : std::uint8_t { same_cpu, smt_sibling, same_llc, same_socket, remote_socket };

struct CpuPlace {
    unsigned socket = 0;
    unsigned core = 0; // within the socket
    unsigned thread = 0;
    unsigned llc_group = 0; // within the socket
};

CpuPlace place_of(const MachineDescription& m, unsigned cpu);
Distance distance(const MachineDescription& m, unsigned a, unsigned b);
double transfer_ns(const MachineDescription& m, Distance d);

nlohmann::json machine_to_json(const MachineDescription& m);
// Throws MachineError naming `source` and the bad key.
MachineDescription machine_from_json(const nlohmann::json& j, std::string_view source);

// The seeds' machines (not `host`, which is measured on demand).
const std::vector<MachineDescription>& builtin_machines();
// A built-in name, `host` (topology from this machine, transfer latency from a ping-pong
// between two of its CPUs), or a path to a JSON description. Throws MachineError.
MachineDescription find_machine(std::string_view name_or_path);

} // namespace hitmap::sim
