#include "collector/store/known_counts.hpp"

#include <fmt/format.h>
#include <stdexcept>

namespace hitmap::store {

namespace {

struct Flag {
    std::string_view name;
    bool KnownCounts::*known;
};

// In the order unknown_names() lists them.
constexpr Flag kFlags[] = {
    {"store_hitm", &KnownCounts::store_hitm},
    {"store_shared", &KnownCounts::store_shared},
    {"invalidations", &KnownCounts::invalidations},
    {"stall_cycles", &KnownCounts::stall_cycles},
    {"traced_ops", &KnownCounts::traced_ops},
    {"dropped_records", &KnownCounts::dropped_records},
    {"cpu_migrations", &KnownCounts::cpu_migrations},
};

template <class T> std::optional<T> if_known(bool known, T value) {
    return known ? std::optional<T>(value) : std::nullopt;
}

} // namespace

std::string unknown_names(const KnownCounts& known) {
    std::string out;
    for (const Flag& f : kFlags)
        if (!(known.*f.known))
            out += fmt::format("{}{}", out.empty() ? "" : ",", f.name);
    return out;
}

KnownCounts known_from_unknown_names(std::string_view names) {
    KnownCounts known;
    if (names.empty())
        return known;
    for (std::size_t start = 0;;) {
        const std::size_t comma = names.find(',', start);
        const std::string_view item = names.substr(start, comma - start);
        const Flag* flag = nullptr;
        for (const Flag& f : kFlags)
            if (f.name == item)
                flag = &f;
        if (!flag)
            throw std::runtime_error(
                fmt::format("run_trace.unknown_counts names '{}', which is no count", item));
        known.*flag->known = false;
        if (comma == std::string_view::npos)
            return known;
        start = comma + 1;
    }
}

ShownCounts shown_counts(const c2c::ClassCounts& c, const KnownCounts& known) {
    return {.l1_hit = c.l1_hit,
            .load_hitm = c.load_hitm,
            .clean_forward = c.clean_forward,
            .cold = c.cold,
            .loads = c.loads,
            .stores = c.stores,
            .store_hitm = if_known(known.store_hitm, c.store_hitm),
            .store_shared = if_known(known.store_shared, c.store_shared),
            .invalidations = if_known(known.invalidations, c.invalidations),
            .hitm = c.hitm(),
            .transfers = known.transfers_if_known(c.transfers()),
            .stall_cycles = if_known(known.stall_cycles, c.stall_cycles)};
}

} // namespace hitmap::store
