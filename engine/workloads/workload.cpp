#include "engine/workloads/workload.hpp"

#include <algorithm>
#include <exception>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <mutex>

namespace hitmap::engine {

void Workload::validate(const WorkloadRunConfig& config) const {
    const auto& variants = info().variants;
    if (std::none_of(variants.begin(), variants.end(),
                     [&](const VariantSpec& v) { return v.name == config.variant; })) {
        std::string names;
        for (const auto& v : variants)
            names += (names.empty() ? "" : ", ") + v.name;
        throw WorkloadError(fmt::format("unknown variant '{}' of {} (variants: {})", config.variant,
                                        info().name, names));
    }
    if (const unsigned least = std::max(1u, info().min_threads); config.threads < least)
        throw WorkloadError(fmt::format("{} needs at least {} thread{}", info().name, least,
                                        least == 1 ? "" : "s"));
    if (info().even_threads && config.threads % 2 != 0)
        throw WorkloadError(fmt::format("{} runs threads in pairs: {} threads is odd", info().name,
                                        config.threads));
    const auto& structs = info().layout_structs;
    for (const auto& [name, layout] : config.layouts)
        if (std::find(structs.begin(), structs.end(), name) == structs.end())
            throw WorkloadError(fmt::format(
                "--layout {}=...: {} does not use struct {} (it takes a layout for: {})", name,
                info().name, name,
                structs.empty() ? "none" : fmt::format("{}", fmt::join(structs, ", "))));
    resolve_params(config);
}

namespace {

// What a parameter of `example`'s type takes, in words for an error message.
std::string_view value_kind(const nlohmann::json& example) {
    if (example.is_boolean())
        return "true or false";
    if (example.is_string())
        return "text";
    return example.is_number() ? "a number" : "a JSON value of its default's type";
}

} // namespace

nlohmann::json Workload::resolve_params(const WorkloadRunConfig& config) const {
    nlohmann::json resolved = nlohmann::json::object();
    for (const ParamSpec& p : info().params)
        resolved[p.name] = p.default_value;
    for (const auto& item : config.params.items()) {
        const std::string& name = item.key();
        const nlohmann::json& value = item.value();
        const auto spec = std::find_if(info().params.begin(), info().params.end(),
                                       [&](const ParamSpec& p) { return p.name == name; });
        if (spec == info().params.end())
            throw WorkloadError(fmt::format("unknown parameter '{}' of {}", name, info().name));
        const nlohmann::json& wanted = spec->default_value;
        if (wanted.is_number_unsigned()) {
            // is_number_integer: 2.5, 1e3 and 1e400 are not counts.
            if (!value.is_number_integer() || value < spec->min || value > spec->max)
                throw WorkloadError(
                    fmt::format("{} parameter {} must be a whole number in {}..{}, not {}",
                                info().name, name, spec->min, spec->max, value.dump()));
        } else if (wanted.type() != value.type()) {
            throw WorkloadError(fmt::format("{} parameter {} must be {}, not {}", info().name, name,
                                            value_kind(wanted), value.dump()));
        }
        resolved[name] = value;
    }
    return resolved;
}

namespace {

// One buffer per worker, with one clock origin: the threads' windows must line up.
std::vector<ThreadTrace> make_trace_buffers(const WorkloadRunConfig& config) {
    std::vector<ThreadTrace> traces;
    if (!config.trace.enabled)
        return traces;
    const std::uint64_t base = TraceBuffer::read_tsc();
    TraceWindow window = config.trace.window;
    window.origin_ns = steady_now_ns();
    for (unsigned t = 0; t < config.threads; ++t)
        traces.push_back(
            ThreadTrace{t, std::make_unique<TraceBuffer>(config.trace.records_per_thread, base,
                                                         window, config.trace.clock)});
    return traces;
}

} // namespace

void Workload::run_workers(const WorkloadRunConfig& config, const ThreadHooks& hooks,
                           WorkloadResult& result, const WorkerBody& body) {
    result.ops_per_thread.assign(config.threads, 0);
    result.traces = make_trace_buffers(config);
    // An exception leaving a worker thread or a simulated CPU's fiber is std::terminate; a
    // plugin's body may throw anything. The first one is rethrown here once every worker ended.
    std::mutex failure_mutex;
    std::exception_ptr failure;
    const WorkerPool::Body worker = [&](unsigned slot, const std::atomic<bool>& stop) {
        TraceBuffer* trace = result.traces.empty() ? nullptr : result.traces[slot].buffer.get();
        ThreadTraceScope scope(trace);
        try {
            result.ops_per_thread[slot] = body(slot, stop, trace);
        } catch (...) {
            const std::lock_guard lock(failure_mutex);
            if (!failure)
                failure = std::current_exception();
        }
    };
    result.seconds = config.executor ? config.executor->run(config.threads, config.stop, hooks,
                                                            result.objects, worker)
                                     : WorkerPool::run(config.threads, config.stop, hooks, worker);
    if (failure)
        std::rethrow_exception(failure);
}

const Workload& find_workload(std::string_view name) {
    for (const Workload* w : all_workloads())
        if (w->info().name == name)
            return *w;
    std::string names;
    for (const Workload* w : all_workloads())
        names += (names.empty() ? "" : ", ") + w->info().name;
    throw WorkloadError(fmt::format("unknown workload '{}' (known: {})", name, names));
}

} // namespace hitmap::engine
