#pragma once
// The `host` machine: this machine's topology and a transfer latency measured here. A ping-pong
// measures a handoff, and a handoff is more than one coherence transaction: the waiter's load
// fetches the line Modified at the other CPU, then its store upgrades the shared copy and
// invalidates the other. The simulator prices each of those, so the host's latency is the one
// under which the simulator's own run of the same ping-pong takes the measured handoff time; it
// is then one transaction, as the built-in machines' figures are.
#include "collector/sim/machine_description.hpp"

namespace hitmap::sim {

// The fastest round's one-way handoff of a load-spin/store ping-pong between two CPUs here, in ns.
// Throws MachineError when fewer than two CPUs are allowed.
double measure_host_handoff_ns();

// The per-transaction transfer latency at which `topology` (its latencies are replaced) runs the
// same ping-pong in `handoff_ns` per handoff under the simulator.
double transfer_for_handoff(const MachineDescription& topology, double handoff_ns);

// This machine: its allowed CPUs as one socket and one LLC, with the fitted transfer latency.
MachineDescription host_machine();

} // namespace hitmap::sim
