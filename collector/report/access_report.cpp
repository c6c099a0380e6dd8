#include "collector/report/access_report.hpp"

#include "collector/report/output_text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace hitmap::report {

namespace {

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "" : ", ") + escape_control(n);
    return out;
}

} // namespace

std::string format_field_access(const analysis::FieldAccessReport& r) {
    std::string out = fmt::format("\nField reads and writes (in {})\n", r.counted_in);
    out += fmt::format("  {:<28} {:<28} {:>5} {:>10} {:>10} {:>9}  {}\n", "Object", "Field", "Line",
                       "Reads", "Writes", "Hitm", "Use");
    for (const auto& f : r.fields)
        out += fmt::format("  {:<28} {:<28} {:>5} {:>10} {:>10} {:>9}  {}\n",
                           escape_control(f.object), escape_control(f.field), f.line, f.reads,
                           f.writes, f.hitm, analysis::to_string(f.use));
    if (r.fields.empty())
        out += "  (no field was accessed)\n";
    out += "\nWritten together (both written: on one line, or by the same code)\n";
    for (const auto& w : r.written_together)
        out += fmt::format("  {}: {} + {}{}{}\n", escape_control(w.object), escape_control(w.first),
                           escape_control(w.second), w.same_line ? "  same line" : "",
                           w.code.empty() ? "" : "  code: " + joined(w.code));
    if (r.written_together.empty())
        out += "  (none)\n";
    out += "\nRead-only fields on written lines (each write costs their readers a transfer)\n";
    for (const auto& b : r.read_beside_write)
        out += fmt::format("  {} line {}: {} beside {}\n", escape_control(b.object), b.line,
                           escape_control(b.field), joined(b.writers));
    if (r.read_beside_write.empty())
        out += "  (none)\n";
    return out;
}

nlohmann::json field_access_json(const analysis::FieldAccessReport& r) {
    nlohmann::json fields = nlohmann::json::array(), together = nlohmann::json::array(),
                   beside = nlohmann::json::array();
    for (const auto& f : r.fields)
        fields.push_back({{"object", f.object},
                          {"field", f.field},
                          {"line", f.line},
                          {"reads", f.reads},
                          {"writes", f.writes},
                          {"hitm", f.hitm},
                          {"use", analysis::to_string(f.use)}});
    for (const auto& w : r.written_together)
        together.push_back({{"object", w.object},
                            {"fields", {w.first, w.second}},
                            {"same_line", w.same_line},
                            {"code", w.code}});
    for (const auto& b : r.read_beside_write)
        beside.push_back(
            {{"object", b.object}, {"field", b.field}, {"line", b.line}, {"writers", b.writers}});
    return {{"counted_in", r.counted_in},
            {"fields", fields},
            {"written_together", together},
            {"read_beside_write", beside}};
}

} // namespace hitmap::report
