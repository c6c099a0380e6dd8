#include "engine/workloads/kmem_world.hpp"

#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_error.hpp"
#include "engine/layout/mem_cgroup_layout.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace hitmap::engine {

const std::vector<KmemVariant>& kmem_variants() {
    static const std::vector<KmemVariant> all = [] {
        KmemSemantics none;
        KmemSemantics p1_2 = none;
        p1_2.cache_vmstat = p1_2.conditional_xchg = true;
        KmemSemantics p1_3 = p1_2;
        p1_3.uncharge_whole_pages = true;
        KmemSemantics p1_4 = p1_3;
        p1_4.task_stock = true;
        return std::vector<KmemVariant>{
            {"off", "accounting disabled: kmalloc/kfree without the memcg hooks", false, none,
             "v5.10"},
            {"none",
             "linux-next-20210419 (v5.12 paths): a refill past a page drains the stock and "
             "leaves the remainder in nr_charged_bytes; a switch xchgs it unconditionally",
             true, none, "v5.10"},
            {"1-2",
             "patches 1-2: vmstat data (pgdat, slab bytes) cached in the object stock; the "
             "xchg of nr_charged_bytes only when it is non-zero",
             true, p1_2, "v5.13+p2"},
            {"1-3",
             "patch 3: an uncharge past a page gives back whole pages and keeps the objcg and "
             "the remainder cached",
             true, p1_3, "v5.13+p2"},
            {"1-4",
             "patch 4 (v5.14): the task-context stock under preempt_disable instead of irq "
             "save/restore, a separate irq stock",
             true, p1_4, "v5.14"},
        };
    }();
    return all;
}

const KmemVariant& kmem_variant(std::string_view name) {
    const auto& all = kmem_variants();
    return *std::find_if(all.begin(), all.end(), [&](const auto& v) { return v.name == name; });
}

unsigned KmemWorld::objects_per_slab(unsigned object_size) {
    switch (object_size) {
    case 32:
        return 128;
    case 512:
    case 4096:
        return 8;
    default:
        throw WorkloadError(fmt::format(
            "object size {} is not modelled: 32, 512 or 4096 bytes (kmalloc-32, -512, -4k)",
            object_size));
    }
}

Layout KmemWorld::mem_cgroup_layout(const std::map<std::string, Layout>& overrides) {
    const Layout& v5_12 = *find_builtin_layout("mem_cgroup", "v5.12");
    Layout layout = layout_under(v5_12, overrides).value_or(v5_12);
    for (const FieldId f : {FieldId{mcg::objcg}, counter_field(Counter::kmem, pc::usage)})
        if (!layout.has(f))
            throw LayoutError(fmt::format("layout {} of mem_cgroup lacks field '{}', which kernel "
                                          "memory accounting uses",
                                          layout.version, layout.field_name(f)));
    return layout;
}

Layout KmemWorld::obj_cgroup_layout(const std::map<std::string, Layout>& overrides) {
    const auto it = overrides.find("obj_cgroup");
    Layout layout =
        it != overrides.end() ? it->second : *find_builtin_layout("obj_cgroup", "v5.10");
    for (FieldId f = 0; f < objcg::kCount; ++f)
        if (f != objcg::list_next && f != objcg::ref_data && !layout.has(f))
            throw LayoutError(fmt::format("layout {} of obj_cgroup lacks field '{}'",
                                          layout.version, layout.field_name(f)));
    return layout;
}

// One CPU: its memcg_stock_pcp (page and object stock), the charging on it, its slab
// statistics and its slabs.
struct KmemWorld::Cpu {
    Cpu(ObjectRegistry& registry, unsigned cpu, const KmemVariant& variant,
        const KmemWorldConfig& config, unsigned memcgs)
        : stock(registry, fmt::format("stock/{}", cpu),
                *find_builtin_layout("memcg_stock_pcp", variant.stock_layout), 32)
        , pages(stock, charge_counters)
        , stats(registry, fmt::format("slabstats/{}", cpu), memcgs)
        , charger(stock, pages, stats, kmem_counters, semantics_of(variant, config))
        , slabs(registry, fmt::format("kmalloc-{}/{}", config.object_size, cpu), cpu,
                config.slabs_per_cpu, objects_per_slab(config.object_size))
        , allocator(slabs, variant.accounting ? &charger : nullptr, config.object_size) {
        stock.set_memsw(config.cgroup_v1);
    }
    static KmemSemantics semantics_of(const KmemVariant& v, const KmemWorldConfig& c) {
        KmemSemantics s = v.semantics;
        s.cgroup_v1 = c.cgroup_v1;
        s.drain_pages = c.drain_pages;
        return s;
    }

    ChargeStock stock;
    ChargeCounters charge_counters;
    MemcgCharger pages;
    SlabStatsCpu stats;
    KmemCounters kmem_counters;
    KmemCharger charger;
    SlabCpu slabs;
    KmemAllocator allocator;
};

KmemWorld::KmemWorld(ObjectRegistry& registry, const KmemVariant& variant,
                     const KmemWorldConfig& config) {
    const Layout layout = mem_cgroup_layout(config.layouts);
    const Layout objcg_layout = obj_cgroup_layout(config.layouts);
    const PageCounterSemantics semantics{ProtectionPropagation::always_exchange, false};
    root_ = std::make_unique<MemCgroup>(registry, "root", nullptr, layout, 0, semantics);
    nodes_.push_back(std::make_unique<MemcgNodeStats>(registry, *root_, nullptr, 0));
    for (unsigned i = 0; i < config.memcgs; ++i) {
        const std::string path = config.memcgs == 1 ? "test" : fmt::format("group{}", i);
        memcgs_.push_back(
            std::make_unique<MemCgroup>(registry, path, root_.get(), layout, 0, semantics));
        nodes_.push_back(std::make_unique<MemcgNodeStats>(registry, *memcgs_.back(),
                                                          nodes_.front().get(), i + 1));
        objcgs_.push_back(
            std::make_unique<ObjCgroup>(registry, *memcgs_.back(), *nodes_.back(), objcg_layout));
    }
    for (unsigned c = 0; c < config.cpus; ++c)
        cpus_.push_back(std::make_unique<Cpu>(registry, c, variant, config, config.memcgs + 1));
}

KmemWorld::~KmemWorld() = default;

KmemAllocator& KmemWorld::allocator(unsigned cpu) {
    return cpus_[cpu]->allocator;
}

void KmemWorld::drain(unsigned cpu) {
    cpus_[cpu]->charger.drain<true>();
}

nlohmann::json KmemWorld::stats() const {
    KmemCounters k;
    ChargeCounters c;
    for (const auto& cpu : cpus_) {
        k.obj_stock_hits += cpu->kmem_counters.obj_stock_hits;
        k.page_charges += cpu->kmem_counters.page_charges;
        k.page_uncharges += cpu->kmem_counters.page_uncharges;
        k.drains += cpu->kmem_counters.drains;
        k.charged_bytes_rmw += cpu->kmem_counters.charged_bytes_rmw;
        k.failures += cpu->kmem_counters.failures;
        c.stock_hits += cpu->charge_counters.stock_hits;
        c.counter_charges += cpu->charge_counters.counter_charges;
    }
    std::int64_t kmem_usage = 0;
    if (PageCounter* kmem = root_->kmem())
        kmem_usage = kmem->usage();
    return {{"obj_stock_hits", k.obj_stock_hits},
            {"obj_cgroup_charge_pages", k.page_charges},
            {"obj_cgroup_uncharge_pages", k.page_uncharges},
            {"obj_stock_drains", k.drains},
            {"nr_charged_bytes_rmw", k.charged_bytes_rmw},
            {"charge_failures", k.failures},
            {"page_stock_hits", c.stock_hits},
            {"page_counter_charges", c.counter_charges},
            {"final_root_memory_usage", root_->memory().usage()},
            {"final_root_kmem_usage", kmem_usage},
            {"final_slab_bytes_root", nodes_.front()->slab_bytes()}};
}

void KmemWorld::finish(WorkloadResult& result, const nlohmann::json& params,
                       const KmemVariant& variant, const std::map<std::string, Layout>& layouts,
                       const std::vector<std::uint64_t>& failures) const {
    result.resolved_params = params;
    result.resolved_params["layout.mem_cgroup"] = mem_cgroup_layout(layouts).version;
    result.resolved_params["layout.obj_cgroup"] = obj_cgroup_layout(layouts).version;
    result.resolved_params["layout.memcg_stock_pcp"] = variant.stock_layout;
    result.stats = stats();
    std::uint64_t failed = 0;
    for (const std::uint64_t f : failures)
        failed += f;
    result.stats["alloc_failures"] = failed;
}

} // namespace hitmap::engine
