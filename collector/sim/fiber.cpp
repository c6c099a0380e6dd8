#include "collector/sim/fiber.hpp"

#include <boost/context/protected_fixedsize_stack.hpp>

#if defined(__SANITIZE_ADDRESS__)
#define HITMAP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HITMAP_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define HITMAP_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define HITMAP_TSAN 1
#endif
#endif

#if HITMAP_ASAN
#include <sanitizer/common_interface_defs.h>
#endif
#if HITMAP_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace hitmap::sim {

namespace ctx = boost::context;

namespace {

// The protected stack (a guard page below it) turns an overflow into a fault, not corruption.
// It reports the stack it allocates, which the sanitizers need to know.
class RecordingStack {
public:
    RecordingStack(std::size_t bytes, const void** bottom, std::size_t* size)
        : inner_(bytes)
        , bottom_(bottom)
        , size_(size) {}
    ctx::stack_context allocate() {
        ctx::stack_context sc = inner_.allocate();
        *bottom_ = static_cast<const char*>(sc.sp) - sc.size;
        *size_ = sc.size;
        return sc;
    }
    void deallocate(ctx::stack_context& sc) noexcept { inner_.deallocate(sc); }

private:
    ctx::protected_fixedsize_stack inner_;
    const void** bottom_;
    std::size_t* size_;
};

} // namespace

Fiber::Fiber(std::function<void()> entry, std::size_t stack_bytes)
    : entry_(std::move(entry)) {
    self_ =
        ctx::fiber(std::allocator_arg, RecordingStack(stack_bytes, &stack_bottom_, &stack_size_),
                   [this](ctx::fiber&& caller) { return run_entry(std::move(caller)); });
#if HITMAP_TSAN
    tsan_fiber_ = __tsan_create_fiber(0);
#endif
}

Fiber::~Fiber() {
    if (!finished_) {
        cancelled_ = true;
        try {
            resume();   // runs to the end of run_entry: Cancelled unwinds its frames
        } catch (...) { // NOLINT(bugprone-empty-catch): a destructor must not throw
        }
    }
    self_ = {};
#if HITMAP_TSAN
    __tsan_destroy_fiber(tsan_fiber_);
#endif
}

void Fiber::resume() {
#if HITMAP_ASAN
    __sanitizer_start_switch_fiber(&caller_fake_stack_, stack_bottom_, stack_size_);
#endif
#if HITMAP_TSAN
    tsan_caller_ = __tsan_get_current_fiber();
    __tsan_switch_to_fiber(tsan_fiber_, 0);
#endif
    self_ = std::move(self_).resume();
#if HITMAP_ASAN
    __sanitizer_finish_switch_fiber(caller_fake_stack_, nullptr, nullptr);
#endif
    if (error_)
        std::rethrow_exception(std::exchange(error_, nullptr));
}

void Fiber::suspend() {
    leave_to_caller(false);
    caller_ = std::move(caller_).resume();
    enter_from_caller();
    if (cancelled_)
        throw Cancelled{};
}

void Fiber::enter_from_caller() {
#if HITMAP_ASAN
    __sanitizer_finish_switch_fiber(fiber_fake_stack_, &caller_bottom_, &caller_size_);
#endif
}

void Fiber::leave_to_caller([[maybe_unused]] bool finishing) {
#if HITMAP_ASAN
    __sanitizer_start_switch_fiber(finishing ? nullptr : &fiber_fake_stack_, caller_bottom_,
                                   caller_size_);
#endif
#if HITMAP_TSAN
    __tsan_switch_to_fiber(tsan_caller_, 0);
#endif
}

ctx::fiber Fiber::run_entry(ctx::fiber&& caller) {
    caller_ = std::move(caller);
    enter_from_caller();
    try {
        if (!cancelled_)
            entry_();
    } catch (const Cancelled&) {
        // Unwound on destruction: nothing to report.
    } catch (...) {
        error_ = std::current_exception();
    }
    finished_ = true;
    leave_to_caller(true);
    return std::move(caller_);
}

} // namespace hitmap::sim
