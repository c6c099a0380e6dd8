#include "collector/analysis/cacheline_columns.hpp"

#include <fmt/format.h>
#include <stdexcept>

namespace hitmap::analysis {

namespace {

using Id = CachelineColumnId;
using Basis = std::optional<analysis::RateBasis>;

// The rate's decimals and suffix follow analysis::rate_text: "0.42", "12.3%".
CachelineColumn rate_column(Id id, const std::string& name, const Basis& basis,
                            Cell (*value)(const CachelineRow&)) {
    const bool share = analysis::is_share(basis);
    return {id,
            name + analysis::rate_suffix(basis),
            share ? 1 : 2,
            share ? "%" : "",
            10,
            false,
            false,
            value};
}

std::optional<double> per_1k(std::optional<std::uint64_t> count, const Basis& basis) {
    return analysis::is_share(basis) ? std::nullopt : analysis::rate(count, basis);
}

} // namespace

CachelineColumn cacheline_column(Id id, const Basis& basis) {
    switch (id) {
    case Id::rank:
        return {id, "#",   0,     "",
                4,  false, false, [](const CachelineRow& r) { return cell_of(r.rank); }};
    case Id::address:
        return {id,
                "Address",
                0,
                "",
                18,
                true,
                false,
                [](const CachelineRow& r) -> Cell {
                    return fmt::format("{:#018x}", r.key.address); }};
    case Id::object:
        return {id, "Object", 0,     "",
                26, true,     false, [](const CachelineRow& r) -> Cell { return r.object; }};
    case Id::line:
        return {id, "Line", 0,     "",
                4,  false,  false, [](const CachelineRow& r) { return cell_of(r.key.index); }};
    case Id::hitm:
        return {id, "Tot Hitm", 0,    "",
                9,  false,      true, [](const CachelineRow& r) { return cell_of(r.counts.hitm); }};
    case Id::hitm_rate:
        return rate_column(id, "Tot Hitm", basis, [](const CachelineRow& r) {
            return cell_of(analysis::rate(r.counts.hitm, r.basis));
        });
    case Id::hitm_per_1k:
        return {
            id,    "Tot Hitm/1k op",
            2,     "",
            14,    false,
            false, [](const CachelineRow& r) {
                    return cell_of(per_1k(r.counts.hitm, r.basis)); }};
    case Id::hitm_share:
        return {
            id, "Tot Hitm %", 1,     "%",
            10, false,        false, [](const CachelineRow& r) { return cell_of(r.hitm_share); }};
    case Id::transfers:
        return {
            id, "Xfer", 0,    "",
            9,  false,  true, [](const CachelineRow& r) { return cell_of(r.counts.transfers); }};
    case Id::transfers_rate:
        return rate_column(id, "Xfer", basis, [](const CachelineRow& r) {
            return cell_of(analysis::rate(r.counts.transfers, r.basis));
        });
    case Id::transfers_per_1k:
        return {id,
                "Xfer/1k op",
                2,
                "",
                10,
                false,
                false,
                [](const CachelineRow& r) {
                    return cell_of(per_1k(r.counts.transfers, r.basis)); }};
    case Id::load_hitm:
        return {id,    "LoadHitm",
                0,     "",
                9,     false,
                false, [](const CachelineRow& r) { return cell_of(r.counts.load_hitm); }};
    case Id::store_hitm:
        return {id,    "StoreHitm",
                0,     "",
                9,     false,
                false, [](const CachelineRow& r) { return cell_of(r.counts.store_hitm); }};
    case Id::invalidations:
        return {id,    "Inval",
                0,     "",
                9,     false,
                false, [](const CachelineRow& r) { return cell_of(r.counts.invalidations); }};
    case Id::clean_forward:
        return {id,    "CleanFwd",
                0,     "",
                9,     false,
                false, [](const CachelineRow& r) { return cell_of(r.counts.clean_forward); }};
    case Id::loads:
        return {id, "Loads", 0,     "",
                9,  false,   false, [](const CachelineRow& r) { return cell_of(r.counts.loads); }};
    case Id::stores:
        return {
            id, "Stores", 0,     "",
            10, false,    false, [](const CachelineRow& r) { return cell_of(r.counts.stores); }};
    case Id::cycles:
        return {id,   "Est. cycles",
                0,    "",
                12,   false,
                true, [](const CachelineRow& r) { return cell_of(r.counts.stall_cycles); }};
    case Id::fields:
        return {id, "Fields", 0,     "",
                0,  true,     false, [](const CachelineRow& r) -> Cell { return r.fields; }};
    }
    throw std::logic_error("unknown cacheline column");
}

std::vector<CachelineColumn> run_line_columns(const Basis& basis, LineTable table) {
    static constexpr std::initializer_list<Id> counts{
        Id::hitm,      Id::hitm_rate,  Id::transfers,     Id::transfers_rate,
        Id::load_hitm, Id::store_hitm, Id::invalidations, Id::clean_forward,
        Id::loads,     Id::stores,     Id::cycles};
    std::vector<Id> ids = table == LineTable::text
                              ? std::vector<Id>{Id::rank, Id::address, Id::object, Id::line}
                              : std::vector<Id>{Id::rank, Id::object, Id::line, Id::fields};
    ids.insert(ids.end(), counts);
    ids.push_back(table == LineTable::text ? Id::fields : Id::address);
    std::vector<CachelineColumn> out;
    for (Id id : ids)
        out.push_back(cacheline_column(id, basis));
    return out;
}

std::vector<CachelineColumn> report_line_columns() {
    std::vector<CachelineColumn> out;
    for (Id id : {Id::object, Id::line, Id::fields, Id::hitm, Id::hitm_per_1k, Id::hitm_share,
                  Id::transfers, Id::transfers_per_1k})
        out.push_back(cacheline_column(id));
    return out;
}

std::string cell_text(const CachelineRow& row, const CachelineColumn& column) {
    return cell_text(column.value(row), column.decimals, column.suffix);
}

} // namespace hitmap::analysis
