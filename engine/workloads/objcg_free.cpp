#include "engine/workloads/objcg_free.hpp"

#include "engine/layout/builtin_layouts.hpp"
#include "engine/workloads/kmem_alloc_free.hpp"
#include "engine/workloads/kmem_world.hpp"
#include "engine/workloads/message_pipe.hpp"

#include <atomic>
#include <charconv>
#include <fmt/format.h>
#include <thread>

namespace hitmap::engine {

namespace {

// The kernel test robot's hackbench (process mode) on the per-object slab accounting commit,
// and Roman Gushchin's diff draining the object stock past 32 pages (lore, Feb 2021).
Investigation gushchin_2021() {
    const auto row = [](std::string label, std::string variant, nlohmann::json params,
                        std::optional<double> seed, std::optional<double> seed_change) {
        params["mode"] = "process";
        RowRun measured{.variant = variant,
                        .params = params,
                        .threads = 2,
                        .iterations = 200000,
                        .quick_iterations = 50000};
        RowRun simulated{.variant = variant,
                         .params = params,
                         .threads = 48,
                         .duration_us = 1000,
                         .quick_duration_us = 200};
        return SeedRow{std::move(label), {seed}, measured, simulated, std::nullopt, seed_change};
    };
    SeedTable t;
    t.title = "hackbench, process mode: throughput with the object stock drained past 1 and 32 "
              "pages";
    t.figures = {{.column = "throughput",
                  .kind = FigureKind::ops_per_s,
                  .unit = "messages/s",
                  .seed_unit = "hackbench.throughput"}};
    t.rows = {row("before per-object accounting (ours: accounting off)", "off", {}, std::nullopt,
                  std::nullopt),
              row("per-object accounting, drain past 1 page (the kernel)", "none",
                  {{"drain", "1page"}}, 72220, -0.624),
              row("drain past 32 pages (the seed's diff)", "none", {{"drain", "32pages"}},
                  std::nullopt, std::nullopt)};
    t.change = ChangeStyle::percent;
    t.machine = "cascadelake-2s-96";
    t.cause = {CauseKind::hottest_line, {1, 2}, {}, {}};
    t.note = "The seed's base is the kernel before per-object accounting; ours is accounting "
             "off. It quantifies 32 pages only as \"some percentage\". Measured: one "
             "sender/receiver pair; simulated: 24 pairs on 48 CPUs.";
    return {"gushchin-2021",
            "hackbench -62.4% with per-object slab accounting",
            "Roman Gushchin, Feb 2021, on the kernel test robot's report",
            {t}};
}

} // namespace

ObjcgFreeWorkload::ObjcgFreeWorkload() {
    info_.name = "objcg-free";
    info_.seed = "004";
    info_.investigation = gushchin_2021();
    info_.description = "hackbench-like: senders allocate accounted objects, receivers on other "
                        "CPUs free them (remote frees through the objcg vector and the object "
                        "stock)";
    info_.min_threads = 2;
    info_.even_threads = true;
    add_kmem_params(info_, 512);
    info_.params.push_back(
        {"mode", "process",
         "process: a memcg per group of tasks, each CPU running every group's sender in turn, a "
         "pipe's worth of messages each; thread: one memcg"});
    info_.params.push_back({"groups", 4u, "hackbench groups (process mode: memcgs)", 1, 64});
    info_.params.push_back(
        {"drain", "1page",
         "the object stock drains past this: 1page (the kernel), 32pages (seed 004's "
         "experiment), Npages or Nbytes (at least one object)"});
    info_.params.push_back({"inflight", 32u, "messages a pipe holds", 1, pipe_ring::kSlots});
}

unsigned ObjcgFreeWorkload::drain_pages(const std::string& text, unsigned object_full_size) {
    unsigned long long n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    const std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
    const bool pages = unit == "page" || unit == "pages";
    if (ec != std::errc() || (!pages && unit != "bytes") || n == 0 || n > (1u << 20))
        throw WorkloadError(
            fmt::format("drain '{}' is not a threshold: 1page, 32pages, Npages or Nbytes", text));
    if (!pages && n < object_full_size)
        throw WorkloadError(fmt::format("drain {} is below one object ({} bytes with its objcg "
                                        "pointer): the stock could never hold one",
                                        text, object_full_size));
    return pages ? static_cast<unsigned>(n)
                 : static_cast<unsigned>((n + kPageSize - 1) / kPageSize);
}

void ObjcgFreeWorkload::validate(const WorkloadRunConfig& config) const {
    Workload::validate(config);
    const nlohmann::json p = resolve_params(config);
    check_kmem_params(p);
    const std::string mode = p["mode"].get<std::string>();
    if (mode != "process" && mode != "thread")
        throw WorkloadError(fmt::format("unknown mode '{}' (process or thread)", mode));
    drain_pages(p["drain"].get<std::string>(), p["size"].get<unsigned>() + 8);
    KmemWorld::mem_cgroup_layout(config.layouts);
    KmemWorld::obj_cgroup_layout(config.layouts);
}

namespace {

// A message is a pointer to its object: the slab and, above the 48 address bits, the index.
std::uint64_t encode(SlabObject o) {
    return reinterpret_cast<std::uintptr_t>(o.slab) | (std::uint64_t{o.index} << 48);
}
SlabObject decode(std::uint64_t v) {
    return {
        reinterpret_cast<Slab*>(static_cast<std::uintptr_t>(v & ((std::uint64_t{1} << 48) - 1))),
        static_cast<std::uint32_t>(v >> 48)};
}

} // namespace

WorkloadResult ObjcgFreeWorkload::run(const WorkloadRunConfig& config,
                                      const ThreadHooks& hooks) const {
    validate(config);
    const nlohmann::json p = resolve_params(config);
    const KmemVariant& variant = kmem_variant(config.variant);
    const bool process = p["mode"].get<std::string>() == "process";
    const unsigned groups = p["groups"].get<unsigned>();
    const unsigned inflight = p["inflight"].get<unsigned>();
    const unsigned pairs = config.threads / 2;
    KmemWorldConfig wc;
    wc.cpus = config.threads;
    wc.memcgs = process ? groups : 1;
    wc.cgroup_v1 = check_kmem_params(p);
    wc.object_size = p["size"].get<unsigned>();
    wc.drain_pages = drain_pages(p["drain"].get<std::string>(), wc.object_size + 8);
    // Every message in a pipe, one on its way into it, and slabs to spare.
    wc.slabs_per_cpu = (inflight + 1) / KmemWorld::objects_per_slab(wc.object_size) + 2;
    wc.layouts = config.layouts;

    WorkloadResult result;
    KmemWorld world(result.objects, variant, wc);
    std::vector<std::unique_ptr<MessagePipe>> pipes;
    for (unsigned i = 0; i < pairs; ++i)
        pipes.push_back(std::make_unique<MessagePipe>(result.objects, i, inflight));
    std::vector<std::uint64_t> failures(config.threads, 0);
    run_workers(config, hooks, result,
                [&](unsigned slot, const std::atomic<bool>& stop, TraceBuffer* trace) {
                    KmemAllocator& allocator = world.allocator(slot);
                    std::uint64_t ops = 0;
                    if (slot < pairs) { // a sender
                        MessagePipe& pipe = *pipes[slot];
                        std::uint64_t sent = 0;
                        ops = counted_loop(config, stop, trace, [&](auto traced) {
                            constexpr bool T = decltype(traced)::value;
                            // A CPU runs the senders of every group in turn: one fills its pipe,
                            // blocks, and the next group's sender runs.
                            MemCgroup& memcg =
                                world.memcg(process ? (sent / inflight + slot) % groups : 0);
                            if (const auto object = allocator.alloc<T>(memcg)) {
                                pipe.send<T>(encode(*object));
                                ++sent;
                            } else {
                                ++failures[slot];
                            }
                        });
                        pipe.close<true>();
                    } else { // a receiver: until its sender closes the pipe
                        MessagePipe& pipe = *pipes[slot - pairs];
                        const bool probed = probes_wanted(trace);
                        std::uint64_t received = 0;
                        for (;;) {
                            const auto message =
                                probed ? pipe.receive<true>() : pipe.receive<false>();
                            if (!message)
                                break;
                            if (probed)
                                allocator.free<true>(decode(*message));
                            else
                                allocator.free<false>(decode(*message));
                            ++received;
                            if (trace)
                                trace->end_operation();
                        }
                        ops = received;
                    }
                    OutsideMeasurement untraced;
                    world.drain(slot);
                    return ops;
                });
    // Throughput is messages delivered: what the receivers freed.
    for (unsigned t = pairs; t < config.threads; ++t)
        result.ops += result.ops_per_thread[t];
    world.finish(result, p, variant, config.layouts, failures);
    result.resolved_params["drain_pages"] = wc.drain_pages;
    return result;
}

} // namespace hitmap::engine
