#include "collector/run/placed_objects.hpp"

#include "collector/btf/layout_source.hpp"
#include "collector/btf/touched_layout.hpp"
#include "collector/btf/type_name.hpp"
#include "collector/locks/text_scan.hpp"
#include "collector/perf/kernel_symbols.hpp"
#include "collector/support/text_file.hpp"
#include "engine/layout/builtin_layouts.hpp"

#include <fmt/format.h>

namespace hitmap::collector {

namespace {

constexpr const char* kForm = "STRUCT@ADDR[:LAYOUT] or STRUCT@SYMBOL[:LAYOUT]";

std::uint64_t symbol_address(const ObjectSpec& o, const SymbolSource& symbols) {
    if (!symbols.kallsyms)
        throw ObjectSpecError(fmt::format("--object {}: {} names a kernel symbol, but {}", o.text,
                                          o.symbol, symbols.why_none));
    const std::string file = symbols.kallsyms->string();
    const auto text = support::read_text_file(file);
    if (!text)
        throw ObjectSpecError(fmt::format("--object {}: cannot read {}", o.text, file));
    const perf::KernelSymbols table = perf::KernelSymbols::parse(*text);
    if (table.empty())
        throw ObjectSpecError(fmt::format("--object {}: {} lists no addresses (kptr_restrict hides "
                                          "them from an unprivileged reader)",
                                          o.text, file));
    const auto address = table.address_of(o.symbol);
    if (!address)
        throw ObjectSpecError(fmt::format("--object {}: {} is not in {} (a kernel lists its data "
                                          "symbols only when built with CONFIG_KALLSYMS_ALL)",
                                          o.text, o.symbol, file));
    return *address;
}

} // namespace

ObjectSpec parse_object_spec(const std::string& text) {
    ObjectSpec o;
    o.text = text;
    const std::size_t at = text.find('@');
    if (at == std::string::npos || at == 0 || at + 1 == text.size())
        throw ObjectSpecError(fmt::format("--object '{}' is not {}", text, kForm));
    o.struct_name = text.substr(0, at);
    if (!btf::is_c_identifier(o.struct_name))
        throw ObjectSpecError(
            fmt::format("--object '{}': '{}' is not a struct name", text, o.struct_name));
    const std::size_t colon = text.find(':', at);
    const std::string where =
        text.substr(at + 1, colon == std::string::npos ? colon : colon - at - 1);
    if (colon != std::string::npos) {
        o.layout = text.substr(colon + 1);
        if (o.layout.empty())
            throw ObjectSpecError(fmt::format("--object '{}' names no layout after ':'", text));
    }
    if (where.starts_with("0x")) {
        o.address = locks::parse_hex(where);
        if (!o.address)
            throw ObjectSpecError(
                fmt::format("--object '{}': '{}' is not a hex address", text, where));
    } else if (btf::is_c_identifier(where)) {
        o.symbol = where;
    } else {
        throw ObjectSpecError(fmt::format("--object '{}': '{}' is neither an address (0x...) nor a "
                                          "symbol",
                                          text, where));
    }
    return o;
}

std::vector<perfc2c::PlacedLayout> place_objects(const std::vector<std::string>& specs,
                                                 const SymbolSource& symbols,
                                                 std::span<const std::uint64_t> addresses) {
    std::vector<perfc2c::PlacedLayout> placed;
    for (const std::string& text : specs) {
        const ObjectSpec o = parse_object_spec(text);
        const std::uint64_t base = o.address ? *o.address : symbol_address(o, symbols);
        const std::string name =
            o.symbol.empty() ? fmt::format("{}@{:#x}", o.struct_name, base) : o.symbol;
        if (engine::find_struct_type(o.struct_name)) {
            placed.push_back({btf::resolve_layout(o.struct_name, o.layout), base, name});
            continue;
        }
        const btf::StructLayout layout = btf::resolve_struct_layout(o.struct_name, o.layout);
        std::vector<std::uint64_t> offsets;
        for (const std::uint64_t a : addresses)
            if (a >= base && a - base < layout.size)
                offsets.push_back(a - base);
        btf::TouchedLayout touched = btf::touched_layout(layout, offsets);
        placed.push_back({std::move(touched.layout), base, name, std::move(touched.type)});
    }
    return placed;
}

} // namespace hitmap::collector
