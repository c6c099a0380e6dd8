#pragma once
// SIGTERM / SIGINT (the GUI's Cancel, a CI timeout, ^C) end the current run cleanly: the
// workers stop, the run is stored as 'cancelled', and no further run starts.
#include <atomic>

namespace hitmap::collector {

// Set by the handlers; async-signal-safe (a lock-free atomic).
std::atomic<bool>& cancel_requested();

// Installs the handlers for the lifetime of the scope, restoring the previous ones after.
class CancelOnSignals {
public:
    CancelOnSignals();
    ~CancelOnSignals();
    CancelOnSignals(const CancelOnSignals&) = delete;
    CancelOnSignals& operator=(const CancelOnSignals&) = delete;
};

} // namespace hitmap::collector
