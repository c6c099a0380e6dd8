#pragma once
// What the kernel does to keep a per-CPU stock to itself: local_irq_save/restore, or (the task
// path after Waiman Long's patch 4) preempt_disable/enable. User space can run neither as such,
// so each section runs natively what of it user space can run, and that is what its time is:
//   - irq: pushf/pop to save the flags and push/popf to restore them (popf is microcoded and
//     the costly half; the cli that follows the save would fault in user space and is left out,
//     so the irq path is if anything cheaper here than in the kernel);
//   - preempt: an increment and a decrement of a thread-local count with compiler barriers and
//     the need-resched test on enable, as preempt_disable()/preempt_enable() compile to a
//     per-CPU __preempt_count.
// Under a simulation both are native work inside the calibrated segments.
#include <cstdint>

namespace hitmap::engine {

class CpuSection {
public:
    enum class Kind : std::uint8_t { irq, preempt };

    explicit CpuSection(Kind kind)
        : kind_(kind) {
        if (kind_ == Kind::irq) {
#if defined(__x86_64__)
            asm volatile("pushfq\n\tpopq %0" : "=r"(flags_) : : "memory");
#endif
        } else {
            ++t_preempt_count;
            asm volatile("" : : : "memory");
        }
    }
    ~CpuSection() {
        if (kind_ == Kind::irq) {
#if defined(__x86_64__)
            asm volatile("pushq %0\n\tpopfq" : : "r"(flags_) : "memory", "cc");
#endif
        } else {
            asm volatile("" : : : "memory");
            if (--t_preempt_count == 0 && t_need_resched) [[unlikely]]
                t_need_resched = false; // preempt_schedule(): nothing to run in the model
        }
    }
    CpuSection(const CpuSection&) = delete;
    CpuSection& operator=(const CpuSection&) = delete;

private:
    static inline thread_local int t_preempt_count = 0;
    static inline thread_local bool t_need_resched = false;
    Kind kind_;
    std::uint64_t flags_ = 0;
};

} // namespace hitmap::engine
