#include "collector/analysis/cacheline_row.hpp"

#include "collector/report/c2c_report.hpp"
#include "collector/report/output_text.hpp"

#include <fmt/format.h>

namespace hitmap::analysis {

std::vector<CachelineRow> cacheline_rows(const store::C2cData& data,
                                         const CachelineRowOptions& options) {
    std::vector<CachelineRow> rows;
    const std::optional<report::RateBasis> basis = report::rate_basis(data);
    for (const c2c::LineStats* l : report::ranked_lines(data.result, options.only_shared)) {
        if (rows.size() == options.limit)
            break;
        const engine::ObjectInfo* o = store::find_object(data, l->line.object);
        CachelineRow row{rows.size(),
                         l->line,
                         o ? o->name : fmt::format("object {}", l->line.object),
                         report::fields_on_line(data, l->line),
                         data.shown(l->counts),
                         basis,
                         std::nullopt,
                         std::nullopt,
                         std::nullopt,
                         {}};
        row.hitm_share = report::hitm_share(row.counts.hitm, data);
        if (options.drilldown)
            if (const auto d = options.drilldown->find(l->line.address);
                d != options.drilldown->end()) {
                row.lcl_hitm = d->second.lcl_hitm;
                row.rmt_hitm = d->second.rmt_hitm;
                row.code = d->second.code;
            }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string line_text(const CachelineRow& row) {
    return fmt::format("{} [{}]", report::escape_control(row.object), row.key.index);
}

} // namespace hitmap::analysis
