#pragma once
// A cooperatively scheduled context on its own stack: Boost.Context's fiber, with the
// annotations AddressSanitizer and ThreadSanitizer need to follow a stack switch (without
// them ASan reports false stack overflows and TSan mixes the contexts' histories).
//
// The scheduler resumes a fiber; the fiber runs until it suspends itself or its entry returns.
// An exception that escapes the entry is rethrown by the resume() that ran it. Destroying a
// fiber that has not finished unwinds it: its suspend() throws, so its frames' destructors
// run on the annotated switch path (Boost's own forced unwind switches unannotated).
#include <boost/context/fiber.hpp>
#include <cstddef>
#include <exception>
#include <functional>

namespace hitmap::sim {

class Fiber {
public:
    static constexpr std::size_t kDefaultStack = std::size_t{256} << 10;

    explicit Fiber(std::function<void()> entry, std::size_t stack_bytes = kDefaultStack);
    ~Fiber();
    Fiber(const Fiber&) = delete;
    Fiber& operator=(const Fiber&) = delete;

    // From the scheduler: runs the fiber until it suspends or finishes.
    void resume();
    // From inside this fiber: back to the resume() that runs it.
    void suspend();
    bool finished() const { return finished_; }

private:
    struct Cancelled {}; // thrown by suspend() into a fiber being destroyed; not a std::exception

    boost::context::fiber run_entry(boost::context::fiber&& caller);
    void enter_from_caller();
    void leave_to_caller(bool finishing);

    std::function<void()> entry_;
    boost::context::fiber self_;   // this fiber's context while it is suspended
    boost::context::fiber caller_; // the scheduler's context while this fiber runs
    std::exception_ptr error_;
    bool finished_ = false;
    bool cancelled_ = false;
    // Sanitizer bookkeeping: the stacks on either side of a switch.
    const void* stack_bottom_ = nullptr;
    std::size_t stack_size_ = 0;
    const void* caller_bottom_ = nullptr;
    std::size_t caller_size_ = 0;
    void* caller_fake_stack_ = nullptr;
    void* fiber_fake_stack_ = nullptr;
    void* tsan_fiber_ = nullptr;
    void* tsan_caller_ = nullptr;
};

} // namespace hitmap::sim
