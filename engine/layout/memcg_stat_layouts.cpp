#include "engine/layout/memcg_stat_layouts.hpp"

#include <fmt/format.h>

namespace hitmap::engine {

namespace {

// The kernel's name of an item's slot in one of the arrays.
std::string item_field(std::string_view array, unsigned item) {
    if (item < kMemcg1States.size())
        return fmt::format("{}[{}]", array, kMemcg1States[item].name);
    return fmt::format("{}[{}]", array, kMemcg1Events[item - kMemcg1States.size()].name);
}

std::string_view array_name(vmstats::Array a, bool event) {
    switch (a) {
    case vmstats::value:
        return event ? "events" : "state";
    case vmstats::local:
        return event ? "events_local" : "state_local";
    default:
        return event ? "events_pending" : "state_pending";
    }
}

// Where an item's slot of array `a` starts, given where each array starts.
std::uint32_t item_offset(unsigned item, std::uint32_t states_at, std::uint32_t events_at) {
    return item < kMemcg1States.size()
               ? states_at + kMemcg1States[item].index * 8
               : events_at + kMemcg1Events[item - kMemcg1States.size()].index * 8;
}

} // namespace

const StructType& memcg_vmstats_type() {
    static const StructType type = [] {
        StructType t{"memcg_vmstats", {}};
        for (unsigned a = 0; a < vmstats::kArrays; ++a)
            for (unsigned i = 0; i < kMemcg1Items; ++i)
                t.fields.push_back(item_field(
                    array_name(static_cast<vmstats::Array>(a), i >= kMemcg1States.size()), i));
        return t;
    }();
    return type;
}

const StructType& memcg_flush_globals_type() {
    static const StructType type{
        "memcg_flush_globals", {"stats_flush_ongoing", "stats_flush_threshold", "flush_next_time"}};
    return type;
}

void append_memcg_stat_layouts(std::vector<Layout>& layouts) {
    constexpr std::uint32_t kStates = kMemcgNrStat * 8, kEvents = kMemcgNrEvents * 8;
    // v6.5: state, events, state_pending, events_pending. v6.6 puts state_local and
    // events_local between them.
    for (const bool v6_6 : {false, true}) {
        Layout l{&memcg_vmstats_type(), v6_6 ? "v6.6" : "v6.5", 0, 8, {}};
        l.placement.resize(memcg_vmstats_type().fields.size());
        std::uint32_t at = 0;
        for (const vmstats::Array a : {vmstats::value, vmstats::local, vmstats::pending}) {
            if (a == vmstats::local && !v6_6)
                continue;
            for (unsigned i = 0; i < kMemcg1Items; ++i)
                l.placement[vmstats::field(a, i)] =
                    FieldPlacement{item_offset(i, at, at + kStates), 8};
            at += kStates + kEvents;
        }
        l.size = at;
        layouts.push_back(std::move(l));
    }
    Layout g{&memcg_flush_globals_type(), "v6.5", 16, 8, {}};
    g.placement = {FieldPlacement{0, 4}, FieldPlacement{4, 4}, FieldPlacement{8, 8}};
    layouts.push_back(std::move(g));
}

std::uint32_t memcg_stat_natural_field_size(const StructType& type, FieldId field) {
    if (&type == &memcg_vmstats_type())
        return 8;
    if (&type == &memcg_flush_globals_type())
        return field == flushglobal::flush_next_time ? 8 : 4;
    return 0;
}

} // namespace hitmap::engine
