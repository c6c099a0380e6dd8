#include "collector/run/perf_c2c.hpp"

#include "collector/perfc2c/errors.hpp"
#include "collector/perfc2c/report_parser.hpp"
#include "collector/run/placed_objects.hpp"

#include <fmt/format.h>

namespace hitmap::collector {

perfc2c::C2cReport read_perf_c2c_report(std::string_view text, std::string_view asker) {
    try {
        return perfc2c::parse_c2c_report(text);
    } catch (const perfc2c::C2cParseError& e) {
        throw PerfC2cReportUnreadable(
            fmt::format("{}: perf c2c report's text, {}", asker, e.what()));
    } catch (const perfc2c::NotAC2cReport& e) {
        throw PerfC2cReportUnreadable(
            fmt::format("{}: perf c2c report printed no report: {}", asker, e.what()));
    }
}

perfc2c::ImportedC2c perf_c2c_tables(const perfc2c::C2cReport& report,
                                     std::vector<perfc2c::PlacedLayout> placed,
                                     const std::vector<std::string>& specs) {
    std::vector<std::uint64_t> sampled; // every data address the Pareto rows name
    for (const perfc2c::ParetoLine& p : report.pareto)
        for (const perfc2c::ParetoRow& r : p.rows)
            sampled.push_back(p.address + r.offset);
    for (perfc2c::PlacedLayout& p : place_objects(specs, SymbolSource::this_machine(), sampled))
        placed.push_back(std::move(p));
    perfc2c::ImportedC2c imported =
        perfc2c::import_report(report, placed, perfc2c::UncoveredLayout::keep);
    // perf's figures, taken on this machine: not a text brought from elsewhere.
    for (store::Metric& m : imported.metrics)
        m.source = store::Source::measured;
    return imported;
}

perfc2c::ImportedC2c perf_c2c_tables(const perfc2c::C2cReport& report,
                                     const engine::WorkloadResult& result,
                                     const std::vector<std::string>& specs) {
    std::vector<perfc2c::PlacedLayout> placed;
    const auto& objects = result.objects.objects();
    const auto& addresses = result.objects.addresses();
    for (std::size_t i = 0; i < objects.size(); ++i)
        if (addresses.at(i) != 0) // an object with no memory of its own was never sampled
            placed.push_back({objects[i].layout, addresses[i], objects[i].name});
    perfc2c::ImportedC2c imported = perf_c2c_tables(report, std::move(placed), specs);
    if (imported.data) {
        store::TraceInfo& t = imported.data->trace;
        t.threads = static_cast<std::uint32_t>(result.ops_per_thread.size());
        t.traced_ops = result.ops; // every operation ran while perf recorded
        t.known.traced_ops = true;
    }
    return imported;
}

std::optional<std::string> report_notes(const std::vector<perfc2c::Note>& notes) {
    if (notes.empty())
        return std::nullopt;
    std::string text = "perf c2c report:";
    for (const perfc2c::Note& n : notes)
        text += n.line ? fmt::format(" line {}: {};", n.line, n.text) : fmt::format(" {};", n.text);
    text.pop_back();
    return text;
}

} // namespace hitmap::collector
