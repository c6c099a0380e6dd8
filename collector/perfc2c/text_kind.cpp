#include "collector/perfc2c/text_kind.hpp"

namespace hitmap::perfc2c {

std::string describe_other_text(std::string_view text) {
    const auto has = [&](std::string_view what) {
        return text.find(what) != std::string_view::npos;
    };
    if (has("Usage: perf c2c") || has("perf c2c record ["))
        return "perf c2c usage text";
    if (has("perf mem report") || has("Memory access"))
        return "perf mem report output";
    if (has("sample_type:") && has("(PERF_TYPE_"))
        return "perf evlist -v output (event attributes)";
    if (has("|OP LOAD|") || has("|OP STORE|"))
        return "perf script output (memory samples)";
    return "a text without a 'Trace Event Information' section";
}

} // namespace hitmap::perfc2c
