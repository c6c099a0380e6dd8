#pragma once
// Failures of the simulated machine, one type per kind.
#include <stdexcept>

namespace hitmap::sim {

// A machine description that does not parse or is out of range; an unknown machine name.
class MachineError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A calibration file that does not parse, or one made for another workload.
class CalibrationError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The simulated run cannot go on: every virtual CPU waits (a deadlock in the engine's code
// under this interleaving), or a worker failed.
class SimulationError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace hitmap::sim
