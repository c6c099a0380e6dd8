#include "collector/analysis/run_detail.hpp"

#include "collector/analysis/kernel_locks_metric.hpp"

namespace hitmap::analysis {

RunDetail read_run_detail(store::Database& db, std::int64_t run_id) {
    auto run = db.run(run_id);
    if (!run)
        throw store::NoSuchRun(db.path(), run_id);
    RunDetail detail{
        *run, store::read_c2c(db, run_id), store::read_lock_tables(db, run_id), {}, {}};
    const std::vector<store::Metric> metrics = db.metrics(run_id);
    if (const auto kernel = find_kernel_locks_metric(metrics))
        detail.kernel_locks_unavailable = kernel_locks_unavailable(*kernel);
    if (detail.c2c)
        detail.drilldown = line_drilldowns(*detail.c2c, run->params_json, metrics);
    return detail;
}

CompareData read_compare(store::Database& db, std::int64_t before, std::int64_t after) {
    CompareData data{read_run_detail(db, before), read_run_detail(db, after), {}, {}};
    auto [run, prediction] = read_prediction(db, data.before, data.after);
    data.prediction_run = std::move(run);
    data.prediction = std::move(prediction);
    return data;
}

StoredPrediction read_prediction(store::Database& db, const RunDetail& before,
                                 const RunDetail& after) {
    // Of the predictions of `before`'s trace, the one under `after`'s layouts: under others it
    // predicts another run than `after`.
    StoredPrediction out{db.latest_prediction(before.run.id, after.run.threads, after.run.id), {}};
    if (out.run && before.c2c)
        if (auto predicted = store::read_c2c(db, out.run->id))
            out.prediction = analysis::compare_prediction(*before.c2c, *predicted,
                                                          after.c2c ? &*after.c2c : nullptr);
    return out;
}

std::string no_c2c_reason(const store::RunRecord& run) {
    if (run.c2c_reason)
        return *run.c2c_reason;
    if (run.source == store::Source::imported)
        return "it was imported from text that holds no cacheline data";
    return "the run stored no reason";
}

} // namespace hitmap::analysis
