#include "engine/runtime/worker_pool.hpp"

#include <algorithm>
#include <barrier>
#include <pthread.h>
#include <sched.h>
#include <thread>

namespace hitmap::engine {

std::vector<int> allowed_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    std::vector<int> cpus;
    if (sched_getaffinity(0, sizeof(set), &set) == 0)
        for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
            if (CPU_ISSET(cpu, &set))
                cpus.push_back(cpu);
    if (cpus.empty())
        cpus.push_back(0);
    return cpus;
}

namespace {

void pin_to(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    // Best effort: a cpuset that forbids it leaves the thread unpinned, and the trace's
    // per-record CPU ids still tell the model where each access ran.
    pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

} // namespace

double WorkerPool::run(unsigned threads, const StopCondition& stop, const ThreadHooks& hooks,
                       const Body& body) {
    if (threads == 0)
        return 0;
    const std::vector<int> cpus = allowed_cpus();
    std::atomic<bool> stop_flag{false};
    std::atomic<unsigned> finished{0};
    std::barrier start(static_cast<std::ptrdiff_t>(threads) + 1);
    // Each worker times its own body: the coordinator may be descheduled while the workers run
    // (2 vCPUs, 3 threads), and it looks at the clock only every kSlice, so its own clock would
    // make a short run last 13 us or 5 ms.
    using Clock = std::chrono::steady_clock;
    std::vector<Clock::time_point> began(threads), ended(threads);
    std::vector<std::thread> workers;
    workers.reserve(threads);
    for (unsigned slot = 0; slot < threads; ++slot)
        workers.emplace_back([&, slot] {
            pin_to(cpus[slot % cpus.size()]);
            if (hooks.on_start)
                hooks.on_start(slot);
            start.arrive_and_wait();
            began[slot] = Clock::now();
            body(slot, stop_flag);
            ended[slot] = Clock::now();
            if (hooks.on_stop)
                hooks.on_stop(slot);
            finished.fetch_add(1, std::memory_order_release);
        });
    start.arrive_and_wait();
    const auto begin = std::chrono::steady_clock::now();
    // Wait in short slices, so a cancel request ends the run within milliseconds.
    constexpr auto kSlice = std::chrono::milliseconds(5);
    const auto deadline =
        stop.duration ? begin + *stop.duration : std::chrono::steady_clock::time_point::max();
    while (finished.load(std::memory_order_acquire) < threads) {
        const auto now = std::chrono::steady_clock::now();
        if (now >= deadline || (stop.cancel && stop.cancel->load(std::memory_order_relaxed))) {
            stop_flag.store(true, std::memory_order_relaxed);
            break;
        }
        std::this_thread::sleep_until(std::min(now + kSlice, deadline));
    }
    for (auto& w : workers)
        w.join();
    // From the first worker's start to the last one's end.
    return std::chrono::duration<double>(*std::max_element(ended.begin(), ended.end()) -
                                         *std::min_element(began.begin(), began.end()))
        .count();
}

} // namespace hitmap::engine
