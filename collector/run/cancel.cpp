#include "collector/run/cancel.hpp"

#include <csignal>

namespace hitmap::collector {

namespace {

static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");

std::atomic<bool> g_cancel{false};
struct sigaction g_previous_term, g_previous_int;

extern "C" void on_cancel_signal(int) {
    g_cancel.store(true, std::memory_order_relaxed);
}

} // namespace

std::atomic<bool>& cancel_requested() {
    return g_cancel;
}

CancelOnSignals::CancelOnSignals() {
    struct sigaction action {};
    action.sa_handler = on_cancel_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, &g_previous_term);
    sigaction(SIGINT, &action, &g_previous_int);
}

CancelOnSignals::~CancelOnSignals() {
    sigaction(SIGTERM, &g_previous_term, nullptr);
    sigaction(SIGINT, &g_previous_int, nullptr);
}

} // namespace hitmap::collector
