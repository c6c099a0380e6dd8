#include "collector/run/software_c2c.hpp"

#include "collector/c2c/replay.hpp"
#include "collector/trace/trace_file.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <optional>

namespace hitmap::collector {

namespace {

void cut_at_first_full_buffer(std::vector<engine::ThreadTrace>& traces) {
    std::optional<std::uint64_t> cutoff;
    for (const auto& t : traces)
        if (t.buffer->filled() && !t.buffer->records().empty())
            cutoff = std::min(cutoff.value_or(UINT64_MAX), t.buffer->records().back().tsc());
    if (cutoff)
        for (const auto& t : traces)
            t.buffer->truncate_at_tsc(*cutoff);
}

} // namespace

store::C2cData analyse_software_c2c(engine::WorkloadResult& result, const C2cOptions& options,
                                    const std::filesystem::path& db_path, std::int64_t run_id) {
    cut_at_first_full_buffer(result.traces);
    std::vector<c2c::ThreadTrace> threads;
    std::vector<std::span<const engine::TraceRecord>> spans;
    store::TraceInfo info;
    for (const auto& t : result.traces) {
        threads.push_back({t.thread, t.buffer->records()});
        spans.push_back(t.buffer->records());
        info.records += t.buffer->records().size();
        info.traced_ops += t.buffer->traced_operations();
        info.dropped_records += t.buffer->dropped_records();
        info.cpu_migrations += t.buffer->cpu_migrations();
    }
    info.threads = static_cast<std::uint32_t>(threads.size());
    info.model_cpus = c2c::to_string(options.model_cpus);
    info.clock = engine::to_string(options.clock);
    info.cost_table = c2c::ReplayConfig{}.costs.name;

    c2c::ReplayConfig config;
    config.model_cpus = options.model_cpus;
    store::C2cData data{
        result.objects.objects(), {}, c2c::replay(threads, result.objects.objects(), config)};

    info.line_size = data.result.line_size;
    if (options.keep_trace) {
        const TraceFileFacts file =
            write_trace_file(trace_path_for(db_path, run_id), spans, info.traced_ops);
        info.bytes = file.bytes;
        info.file_hash = file.hash;
        info.path = trace_file_name(run_id);
    }
    data.trace = info;
    return data;
}

std::optional<TraceCap> trace_cap(const engine::WorkloadResult& result,
                                  const store::TraceInfo& trace, const C2cOptions& options) {
    const bool filled =
        std::any_of(result.traces.begin(), result.traces.end(),
                    [](const engine::ThreadTrace& t) { return t.buffer->filled(); });
    if (!filled || options.window.period_ns != 0 || trace.traced_ops * 2 >= result.ops)
        return std::nullopt;
    return TraceCap{.traced_ops = trace.traced_ops,
                    .ops = result.ops,
                    .dropped_records = trace.dropped_records,
                    .buffer_mib = options.trace_bytes_per_thread >> 20};
}

namespace {

constexpr std::string_view kTraceCapAdvice =
    "raise --trace-mb or spread the trace with --trace-window";

// Ascending run ids as ranges: "43-56, 69-72, 103".
std::string id_ranges(std::vector<std::int64_t> ids) {
    std::sort(ids.begin(), ids.end());
    std::string out;
    for (std::size_t i = 0; i < ids.size();) {
        std::size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
            ++j;
        out += fmt::format("{}{}", out.empty() ? "" : ", ", ids[i]);
        if (j > i)
            out += fmt::format("-{}", ids[j]);
        i = j + 1;
    }
    return out;
}

// One capped run, with its counts.
std::string trace_cap_warning(std::int64_t run_id, const TraceCap& cap) {
    return fmt::format("run {}: its trace holds {} of its {} operations ({} records dropped): a "
                       "thread's {} MiB trace buffer filled, so its cacheline tables describe the "
                       "start of the run; {}",
                       run_id, cap.traced_ops, cap.ops, cap.dropped_records, cap.buffer_mib,
                       kTraceCapAdvice);
}

} // namespace

std::string trace_caps_warning(const std::vector<std::pair<std::int64_t, TraceCap>>& caps) {
    if (caps.size() == 1)
        return trace_cap_warning(caps.front().first, caps.front().second);
    std::vector<std::int64_t> ids;
    double kept = 0;
    bool one_size = true;
    for (const auto& [id, cap] : caps) {
        ids.push_back(id);
        kept += cap.ops ? double(cap.traced_ops) / double(cap.ops) : 0;
        one_size = one_size && cap.buffer_mib == caps.front().second.buffer_mib;
    }
    const std::string buffer =
        one_size ? fmt::format("{} MiB trace buffer", caps.front().second.buffer_mib)
                 : std::string("trace buffer");
    return fmt::format("{} runs filled a thread's {} before half of their operations were "
                       "traced ({:.2g} % on average), so their cacheline tables describe the "
                       "start of each run: runs {}; {}",
                       caps.size(), buffer, 100 * kept / double(caps.size()), id_ranges(ids),
                       kTraceCapAdvice);
}

} // namespace hitmap::collector
