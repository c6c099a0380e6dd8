#include "collector/report/output_text.hpp"

#include <fmt/format.h>

namespace hitmap::report {

namespace {

// '&' '<' '>' (with `quotes`, '"' '\'' too) as HTML entities; nullptr for other characters.
const char* entity(char ch, bool quotes) {
    switch (ch) {
    case '&':
        return "&amp;";
    case '<':
        return "&lt;";
    case '>':
        return "&gt;";
    case '"':
        return quotes ? "&quot;" : nullptr;
    case '\'':
        return quotes ? "&#39;" : nullptr;
    default:
        return nullptr;
    }
}

} // namespace

std::string markdown_text(std::string_view text) {
    constexpr std::string_view kMarkdown = "|\\`*_[]";
    std::string out;
    for (char ch : escape_control(text)) {
        if (const char* e = entity(ch, false)) {
            out += e;
        } else {
            if (kMarkdown.find(ch) != std::string_view::npos)
                out += '\\';
            out += ch;
        }
    }
    return out;
}

std::string html_text(std::string_view text) {
    std::string out;
    for (char ch : escape_control(text)) {
        const char* e = entity(ch, true);
        out += e ? std::string_view(e) : std::string_view(&ch, 1);
    }
    return out;
}

std::string rate_text(double per_second) {
    if (per_second >= 1e6)
        return fmt::format("{:.2f} M", per_second / 1e6);
    if (per_second >= 1e3)
        return fmt::format("{:.2f} k", per_second / 1e3);
    return fmt::format("{:.0f}", per_second);
}

} // namespace hitmap::report
