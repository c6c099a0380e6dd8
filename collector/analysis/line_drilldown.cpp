#include "collector/analysis/line_drilldown.hpp"

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <string_view>

namespace hitmap::analysis {

namespace {

// The figures `import perf-c2c` stores per shared line and Pareto row
// (collector/perfc2c/imported_run.cpp): "perf_c2c.line.0x602180.rmt_hitm",
// "perf_c2c.line.0x602180.row3.load_cycles_mean".
constexpr std::string_view kLinePrefix = "perf_c2c.line.";

struct ImportedLine {
    std::map<std::string, double, std::less<>> values;
    std::map<std::size_t, std::map<std::string, double, std::less<>>> rows;
};

std::optional<std::uint64_t> parse_number(std::string_view text, int base) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
    if (ec != std::errc{} || end != text.data() + text.size() || text.empty())
        return std::nullopt;
    return v;
}

std::optional<std::uint64_t> parse_hex(std::string_view text) {
    if (!text.starts_with("0x"))
        return std::nullopt;
    return parse_number(text.substr(2), 16);
}

std::map<std::uint64_t, ImportedLine> imported_lines(const std::vector<store::Metric>& metrics) {
    std::map<std::uint64_t, ImportedLine> out;
    for (const store::Metric& m : metrics) {
        std::string_view name = m.name;
        if (!m.value || !name.starts_with(kLinePrefix))
            continue;
        name.remove_prefix(kLinePrefix.size());
        const auto dot = name.find('.');
        const auto address = parse_hex(name.substr(0, dot));
        if (dot == std::string_view::npos || !address)
            continue;
        std::string_view rest = name.substr(dot + 1);
        ImportedLine& line = out[*address];
        if (rest.starts_with("row")) {
            const auto end = rest.find('.');
            const auto k = parse_number(rest.substr(3, end - 3), 10);
            if (end != std::string_view::npos && k)
                line.rows[*k][std::string(rest.substr(end + 1))] = *m.value;
        } else {
            line.values[std::string(rest)] = *m.value;
        }
    }
    return out;
}

template <class Map> std::optional<double> value(const Map& values, std::string_view key) {
    const auto it = values.find(key);
    return it == values.end() ? std::nullopt : std::optional(it->second);
}

std::optional<std::uint64_t> count(const std::optional<double>& v) {
    return v ? std::optional(static_cast<std::uint64_t>(std::llround(*v))) : std::nullopt;
}

// A row's share of one of its line's counts, as the import reconstructs it.
std::optional<std::uint64_t> share(const std::optional<double>& percent,
                                   const std::optional<double>& total) {
    if (!percent || !total)
        return std::nullopt;
    return count(*percent / 100.0 * *total);
}

std::optional<std::string> text(const nlohmann::json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? std::optional(it->get<std::string>()) : std::nullopt;
}

// The code locations an import keeps in its parameters, by line address.
std::map<std::uint64_t, const nlohmann::json*> code_lines(const nlohmann::json& params) {
    std::map<std::uint64_t, const nlohmann::json*> out;
    const auto code = params.find("code");
    if (code == params.end() || !code->is_array())
        return out;
    for (const auto& line : *code)
        if (const auto address = text(line, "address"))
            if (const auto a = parse_hex(*address))
                out[*a] = &line;
    return out;
}

// The run's name of the field at `offset` of `line`: a placed struct's, or perf's offset.
std::string field_at(const store::C2cData& data, const c2c::LineKey& line, std::uint32_t offset) {
    for (const c2c::FieldStats& f : data.result.fields)
        if (f.line == line && f.offset == offset)
            return f.field_name;
    return fmt::format("+{:#x}", offset);
}

std::string why_no_code(const store::C2cData& data, bool imported_text) {
    if (imported_text)
        return "perf printed no Pareto rows for this line";
    if (data.trace.format == store::kPerfC2cReportFormat)
        return "this run kept perf c2c's figures, not its code locations";
    if (data.trace.clock == "sampled")
        return "PMU samples are attributed by data address; their code addresses are not kept";
    return "a replay keeps no code addresses; the field pairs say which field's write each "
           "access met";
}

} // namespace

std::map<std::uint64_t, LineDrilldown> line_drilldowns(const store::C2cData& data,
                                                       const std::string& params_json,
                                                       const std::vector<store::Metric>& metrics) {
    const auto imported = imported_lines(metrics);
    const nlohmann::json params = nlohmann::json::parse(params_json, nullptr, false);
    const auto code =
        params.is_object() ? code_lines(params) : std::map<std::uint64_t, const nlohmann::json*>{};
    // A replay's cycles come from its cost model; PMU samples' are their measured latencies.
    const bool estimated = data.trace.clock != "sampled";

    std::map<std::uint64_t, LineDrilldown> out;
    for (const c2c::LineStats& l : data.result.lines) {
        LineDrilldown& d = out[l.line.address];
        d.loads = l.counts.loads;
        d.stores = l.counts.stores;
        if (data.trace.known.stall_cycles && l.counts.loads > 0) {
            d.mean_load_cycles = l.counts.stall_cycles / static_cast<double>(l.counts.loads);
            d.cycles_estimated = estimated;
        }
        for (const c2c::CpuStats& c : data.result.cpus)
            if (c.line == l.line)
                d.cpus.push_back({c.cpu, c.counts.hitm(), c.counts.loads, c.counts.stores});

        const auto figures = imported.find(l.line.address);
        const ImportedLine* f = figures == imported.end() ? nullptr : &figures->second;
        if (f) {
            d.lcl_hitm = count(value(f->values, "lcl_hitm"));
            d.rmt_hitm = count(value(f->values, "rmt_hitm"));
        }
        const auto located = code.find(l.line.address);
        if (located != code.end())
            d.node = text(*located->second, "node");
        const nlohmann::json* rows = located != code.end() && located->second->contains("rows")
                                         ? &(*located->second)["rows"]
                                         : nullptr;
        if (!rows || !rows->is_array() || rows->empty()) {
            d.no_code_reason = why_no_code(data, f != nullptr && located != code.end());
            continue;
        }
        for (std::size_t k = 0; k < rows->size(); ++k) {
            const nlohmann::json& r = (*rows)[k];
            CodeRow row;
            row.offset =
                static_cast<std::uint32_t>(parse_hex(text(r, "offset").value_or("")).value_or(0));
            row.field = field_at(data, l.line, row.offset);
            row.code_address = text(r, "code_address");
            row.symbol = text(r, "symbol");
            row.object = text(r, "object");
            row.source = text(r, "source");
            row.pid = text(r, "pid");
            row.tid = text(r, "tid");
            row.cpus = text(r, "node");
            if (f) {
                if (const auto it = f->rows.find(k); it != f->rows.end()) {
                    const auto& v = it->second;
                    row.rmt_hitm =
                        share(value(v, "rmt_hitm_percent"), value(f->values, "rmt_hitm"));
                    row.lcl_hitm =
                        share(value(v, "lcl_hitm_percent"), value(f->values, "lcl_hitm"));
                    row.store_l1_hit =
                        share(value(v, "store_l1_hit_percent"), value(f->values, "store_l1_hit"));
                    row.store_l1_miss =
                        share(value(v, "store_l1_miss_percent"), value(f->values, "store_l1_miss"));
                    row.records = count(value(v, "records"));
                    row.cpu_count = count(value(v, "cpu_count"));
                    row.rmt_hitm_cycles = value(v, "rmt_hitm_cycles_mean");
                    row.lcl_hitm_cycles = value(v, "lcl_hitm_cycles_mean");
                    row.load_cycles = value(v, "load_cycles_mean");
                }
            }
            d.code.push_back(std::move(row));
        }
    }
    return out;
}

} // namespace hitmap::analysis
