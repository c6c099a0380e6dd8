// libFuzzer target for the perf c2c report parser: any input either parses or throws one of the
// library's exception types (a bad line, not a c2c report, not UTF-8 as a whole), never anything
// else, and never crashes. A parsed report keeps the promises its consumers rely on.
#include "collector/perfc2c/errors.hpp"
#include "collector/perfc2c/report_parser.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

using namespace hitmap::perfc2c;

// The Pareto has a block per line of the table, in its order, and --stats output has neither;
// there are at most kMaxSharedLines lines, every offset lies in a double cacheline, and the
// trace's HITM counts the import relies on are there.
void check(const C2cReport& r) {
    if (r.stats_only && (!r.lines.empty() || !r.pareto.empty()))
        std::abort();
    if (r.pareto.size() != r.lines.size() || r.lines.size() > kMaxSharedLines)
        std::abort();
    if (!r.trace_stat("Load Local HITM") || !r.trace_stat("Load Remote HITM"))
        std::abort();
    for (std::size_t k = 0; k < r.pareto.size(); ++k) {
        const ParetoLine& p = r.pareto[k];
        if (p.index != r.lines[k].index || p.address != r.lines[k].address)
            std::abort();
        for (const ParetoRow& row : p.rows)
            if (row.offset >= 128 || row.symbol.empty() || row.object.empty())
                std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        check(parse_c2c_report(text));
    } catch (const C2cParseError&) {
    } catch (const NotAC2cReport&) {
    } catch (const C2cTextEncodingError&) {
    }
    return 0;
}
