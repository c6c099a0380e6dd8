#include "engine/workloads/page_counter_charge.hpp"
#include "engine/workloads/res_counter_charge.hpp"
#include "engine/workloads/workload.hpp"

namespace hitmap::engine {

const std::vector<const Workload*>& all_workloads() {
    static const PageCounterChargeWorkload page_counter_charge;
    static const ResCounterChargeWorkload res_counter_charge;
    static const std::vector<const Workload*> all{&page_counter_charge, &res_counter_charge};
    return all;
}

} // namespace hitmap::engine
