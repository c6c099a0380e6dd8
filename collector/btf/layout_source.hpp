#pragma once
// Where a layout named on the command line comes from: STRUCT=v6.1 (built-in or plugin),
// STRUCT=FILE.json, and STRUCT=btf (the running kernel's BTF), STRUCT=btf:FILE (a BTF or ELF
// file) or STRUCT=btf:MODULE (a loaded module's, over the running kernel's). The engine
// resolves the first two (engine::resolve_layout); this adds BTF, which the engine, free of
// libbpf, cannot read.
#include "collector/btf/struct_layout.hpp"
#include "engine/layout/layout.hpp"

#include <string_view>

namespace hitmap::btf {

bool names_btf(std::string_view name_or_file);

// Throws engine::LayoutError (unknown layout or struct, a BTF layout that does not fit the
// engine), BtfReadError, StructNotFound or BtfFormatError.
engine::Layout resolve_layout(std::string_view struct_name, std::string_view name_or_file);

// Any struct, as BTF lays it out: STRUCT=btf, btf:FILE, btf:MODULE, or FILE.json (what `layout
// show STRUCT --json` writes, or fields written by hand). Throws engine::LayoutError (a spec
// that is neither, a JSON file of another struct), BtfReadError, StructNotFound or
// BtfFormatError.
StructLayout resolve_struct_layout(std::string_view struct_name, std::string_view spec);

} // namespace hitmap::btf
