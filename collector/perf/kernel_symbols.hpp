#pragma once
// /proc/kallsyms as a lookup table, to name a lock address "symbol+0xoff" the way %pS does.
// Only statically allocated locks resolve; a lock inside a heap object has no symbol.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::perf {

class KernelSymbols {
public:
    // Parses kallsyms text ("ffffffff81000000 T _text", modules with a "[mod]" suffix).
    // Addresses printed as zero (kptr_restrict hides them) leave the table empty.
    static KernelSymbols parse(std::string_view text);
    // Reads /proc/kallsyms; an empty table when it is unreadable.
    static KernelSymbols load();

    // "name+0xoff" for an address in the kernel image or modules less than 64 KiB past a
    // symbol; nullopt otherwise (heap addresses fall below the image, stacks and per-CPU areas
    // lie far past any symbol).
    std::optional<std::string> describe(std::uint64_t address) const;
    // The address of a symbol by its name (the first listed, for a name two modules share).
    std::optional<std::uint64_t> address_of(std::string_view name) const;
    bool empty() const { return symbols_.empty(); }

private:
    struct Symbol {
        std::uint64_t address;
        std::string name;
    };
    std::vector<Symbol> symbols_; // sorted by address
};

} // namespace hitmap::perf
