#include "collector/c2c/cost_model.hpp"

#include "collector/c2c/errors.hpp"
#include "collector/support/text_file.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace hitmap::c2c {

namespace {

struct Key {
    const char* name;
    double CostTable::*cycles;
};
constexpr Key kCycleKeys[] = {
    {"l1_hit", &CostTable::l1_hit},
    {"load_hitm", &CostTable::load_hitm},
    {"store_hitm", &CostTable::store_hitm},
    {"atomic_hitm", &CostTable::atomic_hitm},
    {"clean_forward", &CostTable::clean_forward},
    {"store_shared", &CostTable::store_shared},
    {"atomic_shared", &CostTable::atomic_shared},
    {"cold", &CostTable::cold},
};

} // namespace

CostTable parse_cost_table(std::string_view json_text, std::string_view source) {
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(json_text);
    } catch (const nlohmann::json::parse_error& e) {
        throw CostTableError(fmt::format("cost table {}: {}", source, e.what()));
    }
    if (!doc.is_object())
        throw CostTableError(fmt::format("cost table {}: expected a JSON object", source));

    CostTable table;
    for (const auto& [name, value] : doc.items()) {
        if (name == "queueing") {
            if (!value.is_boolean())
                throw CostTableError(
                    fmt::format("cost table {}: 'queueing' must be true or false", source));
            table.queueing = value.get<bool>();
            continue;
        }
        const Key* key = nullptr;
        for (const Key& k : kCycleKeys)
            if (name == k.name)
                key = &k;
        if (!key)
            throw CostTableError(fmt::format("cost table {}: unknown key '{}'", source, name));
        if (!value.is_number() || value.get<double>() < 0)
            throw CostTableError(
                fmt::format("cost table {}: '{}' must be a number of cycles >= 0, got {}", source,
                            name, value.dump()));
        table.*(key->cycles) = value.get<double>();
    }
    return table;
}

CostTable load_cost_table(const std::filesystem::path& path) {
    const auto text = support::read_text_file(path);
    if (!text)
        throw CostTableError(fmt::format("cost table {}: cannot be opened", path.string()));
    CostTable table = parse_cost_table(*text, path.string());
    table.name = "file:" + path.string();
    return table;
}

std::string describe_cost_table(const std::string& name) {
    if (name == CostTable{}.name)
        return "built-in ccbench table (Xeon E7-8867L same die, David et al. SOSP 2013); "
               "queueing gaps in TSC ticks taken as cycles";
    if (name == kSampleWeights)
        return "latencies the PMU measured (sample weights in cycles; loads only, stores carry "
               "none)";
    if (name.starts_with("machine:"))
        return "latencies of the simulated machine " + name.substr(8) +
               " (its description is stored with the run); cycles at its clock";
    return name + "; queueing gaps in TSC ticks taken as cycles";
}

CostModel::CostModel(const CostTable& table, std::size_t lines)
    : table_(table)
    , queues_(lines) {}

double CostModel::base_cost(AccessClass cls, engine::AccessKind kind) const {
    const bool atomic = kind == engine::AccessKind::rmw || kind == engine::AccessKind::cas;
    switch (cls) {
    case AccessClass::l1_hit:
        return table_.l1_hit;
    case AccessClass::load_hitm:
        return table_.load_hitm;
    case AccessClass::store_hitm:
        return atomic ? table_.atomic_hitm : table_.store_hitm;
    case AccessClass::clean_forward:
        return table_.clean_forward;
    case AccessClass::store_shared:
        return atomic ? table_.atomic_shared : table_.store_shared;
    case AccessClass::cold:
        return table_.cold;
    }
    return 0;
}

double CostModel::charge(std::uint32_t line, std::uint64_t tsc, AccessClass cls,
                         engine::AccessKind kind) {
    const double cost = base_cost(cls, kind);
    if (!table_.queueing || cls == AccessClass::cold || cls == AccessClass::l1_hit)
        return cost;
    LineQueue& q = queues_[line];
    // Records of different threads may be slightly out of TSC order (skew): a request that
    // appears to come before the previous one certainly overlaps it.
    const bool overlaps = q.last_cost > 0 &&
                          (tsc < q.last_tsc || static_cast<double>(tsc - q.last_tsc) < q.last_cost);
    q.depth = overlaps ? q.depth + 1 : 0;
    q.last_tsc = tsc;
    q.last_cost = cost;
    return cost + cost * q.depth / 2;
}

} // namespace hitmap::c2c
