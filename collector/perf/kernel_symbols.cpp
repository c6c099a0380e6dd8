#include "collector/perf/kernel_symbols.hpp"

#include "collector/support/text_file.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>

namespace hitmap::perf {

namespace {
// Kernel image and modules live in the top of the address space; the direct map (where
// kmalloc'ed locks live) sits below the image, so nearest-below would name it wrongly.
constexpr std::uint64_t kKernelImageStart = 0xffffffff80000000ull;
// kallsyms has no sizes: an address far past the nearest symbol (a stack, a per-CPU area)
// belongs to something unnamed. Static locks sit near their symbol's start.
constexpr std::uint64_t kMaxOffset = 0x10000;
} // namespace

KernelSymbols KernelSymbols::parse(std::string_view text) {
    KernelSymbols table;
    while (!text.empty()) {
        const auto eol = text.find('\n');
        std::string_view line = text.substr(0, eol);
        text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
        std::uint64_t address = 0;
        const auto [p, ec] = std::from_chars(line.data(), line.data() + line.size(), address, 16);
        if (ec != std::errc() || address < kKernelImageStart)
            continue;
        line.remove_prefix(static_cast<std::size_t>(p - line.data()));
        // " T name\t[module]"
        if (line.size() < 4 || line[0] != ' ' || line[2] != ' ')
            continue;
        std::string_view name = line.substr(3);
        name = name.substr(0, name.find_first_of(" \t"));
        if (!name.empty())
            table.symbols_.push_back({address, std::string(name)});
    }
    std::stable_sort(table.symbols_.begin(), table.symbols_.end(),
                     [](const Symbol& a, const Symbol& b) { return a.address < b.address; });
    return table;
}

KernelSymbols KernelSymbols::load() {
    const auto text = support::read_text_file("/proc/kallsyms");
    return text ? parse(*text) : KernelSymbols{};
}

std::optional<std::string> KernelSymbols::describe(std::uint64_t address) const {
    if (address < kKernelImageStart)
        return std::nullopt;
    auto it = std::upper_bound(symbols_.begin(), symbols_.end(), address,
                               [](std::uint64_t a, const Symbol& s) { return a < s.address; });
    if (it == symbols_.begin())
        return std::nullopt;
    --it;
    if (address - it->address >= kMaxOffset)
        return std::nullopt;
    return fmt::format("{}+{:#x}", it->name, address - it->address);
}

std::optional<std::uint64_t> KernelSymbols::address_of(std::string_view name) const {
    const auto it = std::find_if(symbols_.begin(), symbols_.end(),
                                 [&](const Symbol& s) { return s.name == name; });
    return it == symbols_.end() ? std::nullopt : std::optional(it->address);
}

} // namespace hitmap::perf
