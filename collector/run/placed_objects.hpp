#pragma once
// `--object STRUCT@ADDR[:LAYOUT]` and `--object STRUCT@SYMBOL[:LAYOUT]`: an object of any struct
// placed at a data address of a capture, so the lines it covers carry "object [line]" and its
// field names. LAYOUT is what --layout takes (btf, btf:FILE, btf:MODULE, a FILE.json, a
// built-in version); by default the running kernel's BTF. A struct the engine models is placed
// with its engine layout; any other with the members the capture touched (touched_layout.hpp).
#include "collector/perfc2c/imported_run.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace hitmap::collector {

// An --object that cannot be placed: not STRUCT@ADDR|SYMBOL[:LAYOUT], or a symbol that does not
// resolve. what() is one line naming the --object.
class ObjectSpecError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct ObjectSpec {
    std::string text; // as given
    std::string struct_name;
    std::optional<std::uint64_t> address; // nullopt: the symbol's
    std::string symbol;
    std::string layout = "btf";
};

// Throws ObjectSpecError naming what is wrong with the text.
ObjectSpec parse_object_spec(const std::string& text);

// Where a SYMBOL's address comes from: the capturing machine's kallsyms, which is
// /proc/kallsyms only for a capture of this machine. With none, `why_none` is the reason a
// symbol is refused.
struct SymbolSource {
    std::optional<std::filesystem::path> kallsyms;
    std::string why_none;

    static SymbolSource this_machine() { return {"/proc/kallsyms", {}}; }
};

// The objects placed, in the order given, their layouts made for the capture's data addresses
// (any order); each named "STRUCT@ADDR" or by its symbol. Throws ObjectSpecError for a spec
// or symbol that cannot be resolved, and the layout's own
// errors (engine::LayoutError, btf::BtfReadError, btf::StructNotFound, btf::BtfFormatError).
std::vector<perfc2c::PlacedLayout> place_objects(const std::vector<std::string>& specs,
                                                 const SymbolSource& symbols,
                                                 std::span<const std::uint64_t> addresses);

} // namespace hitmap::collector
