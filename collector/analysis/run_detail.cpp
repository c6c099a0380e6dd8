#include "collector/analysis/run_detail.hpp"

#include "collector/analysis/kernel_locks_metric.hpp"

namespace hitmap::analysis {

RunDetail read_run_detail(store::Database& db, std::int64_t run_id) {
    auto run = db.run(run_id);
    if (!run)
        throw store::NoSuchRun(db.path(), run_id);
    RunDetail detail{*run, store::read_c2c(db, run_id), store::read_lock_tables(db, run_id), {}};
    if (const auto kernel = find_kernel_locks_metric(db.metrics(run_id)))
        detail.kernel_locks_unavailable = kernel_locks_unavailable(*kernel);
    return detail;
}

CompareData read_compare(store::Database& db, std::int64_t before, std::int64_t after) {
    CompareData data{read_run_detail(db, before), read_run_detail(db, after), {}, {}};
    data.prediction_run = db.latest_prediction(before, data.after.run.threads);
    if (data.prediction_run && data.before.c2c) {
        if (auto predicted = store::read_c2c(db, data.prediction_run->id))
            data.prediction = report::compare_prediction(
                *data.before.c2c, *predicted, data.after.c2c ? &*data.after.c2c : nullptr);
    }
    return data;
}

} // namespace hitmap::analysis
