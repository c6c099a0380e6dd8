#include "collector/support/control_text.hpp"

#include <cstdint>
#include <fmt/format.h>

namespace hitmap::support {

namespace {

bool is_c0_or_del(unsigned char c) {
    return c < 0x20 || c == 0x7f;
}

// U+0080..U+009F is C2 80..C2 9F in UTF-8.
bool is_c1_at(std::string_view text, std::size_t i) {
    return static_cast<unsigned char>(text[i]) == 0xc2 && i + 1 < text.size() &&
           static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
           static_cast<unsigned char>(text[i + 1]) <= 0x9f;
}

// The code point of a bidirectional formatting character at `i` (Unicode's Bidi_Control: ALM
// U+061C, LRM/RLM U+200E/F, the embeddings and overrides U+202A..E, the isolates U+2066..9),
// or 0. They reorder what a terminal shows after them ("Trojan Source").
char32_t bidi_control_at(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) {
        return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u;
    };
    if (byte(0) == 0xd8 && byte(1) == 0x9c)
        return 0x061c;
    if (byte(0) != 0xe2)
        return 0;
    const char32_t cp = 0x2000 | ((byte(1) & 0x3fu) << 6) | (byte(2) & 0x3fu);
    const bool continuation = (byte(1) & 0xc0u) == 0x80 && (byte(2) & 0xc0u) == 0x80;
    if (continuation && (cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
                         (cp >= 0x2066 && cp <= 0x2069)))
        return cp;
    return 0;
}

} // namespace

bool has_control(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i)
        if (is_c0_or_del(static_cast<unsigned char>(text[i])) || is_c1_at(text, i) ||
            bidi_control_at(text, i))
            return true;
    return false;
}

std::string escape_control(std::string_view text) {
    if (!has_control(text))
        return std::string(text);
    std::string out;
    out.reserve(text.size() + 8);
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (is_c1_at(text, i)) {
            out += fmt::format("\\u{:04x}", static_cast<unsigned char>(text[++i]));
            continue;
        }
        if (const char32_t bidi = bidi_control_at(text, i)) {
            out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(bidi));
            i += bidi == 0x061c ? 1 : 2;
            continue;
        }
        if (!is_c0_or_del(c)) {
            out += text[i];
            continue;
        }
        switch (c) {
        case '\0':
            out += "\\0";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            out += fmt::format("\\x{:02x}", c);
        }
    }
    return out;
}

std::string json_text(const nlohmann::json& j, int indent) {
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace hitmap::support
