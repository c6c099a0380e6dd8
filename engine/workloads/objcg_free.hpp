#pragma once
// Seed 004 (Xing Zhengjun and Roman Gushchin, 2021): hackbench's -62.4 % in process mode after
// slab accounting moved to obj_cgroup. Senders allocate accounted objects and pass them through
// a pipe to receivers on other CPUs, which free them: each free reads the objcg vector line
// the allocating CPU wrote and refills the receiver's object stock, whose drains leave bytes in
// obj_cgroup.nr_charged_bytes for the next stock that switches to that objcg to take. In
// process mode every group of tasks is a memcg of its own and a CPU serves several groups, so
// the stocks keep switching objcgs; in thread mode all share one. `drain` is Roman Gushchin's
// experiment: drain the stock past 32 pages instead of one.
#include "engine/workloads/workload.hpp"

namespace hitmap::engine {

class ObjcgFreeWorkload : public Workload {
public:
    ObjcgFreeWorkload();
    const WorkloadInfo& info() const override { return info_; }
    void validate(const WorkloadRunConfig& config) const override;
    WorkloadResult run(const WorkloadRunConfig& config, const ThreadHooks& hooks) const override;

    // "1page", "32pages", "Npages", or "Nbytes": the stock's drain threshold in pages (rounded
    // up). Throws WorkloadError for anything else, zero, or fewer bytes than one object.
    static unsigned drain_pages(const std::string& text, unsigned object_full_size);

private:
    WorkloadInfo info_;
};

} // namespace hitmap::engine
