#pragma once
// Reading one struct's layout out of BTF (fidelity.md §6): members through anonymous unions
// and structs, nested structs as dotted paths, typedefs and qualifiers skipped, bitfields in
// both BTF encodings, zero-size markers, alignment inferred from the offsets.
#include "collector/btf/btf_file.hpp"
#include "collector/btf/struct_layout.hpp"

#include <string_view>

namespace hitmap::btf {

// The struct (or, failing that, union, or typedef of either) named `name`. Throws
// StructNotFound, or BtfFormatError for BTF no compiler would emit (a member past the end of
// its struct, a type cycle, more than 65536 members once nested structs are expanded).
StructLayout read_struct_layout(const BtfFile& file, std::string_view name);

} // namespace hitmap::btf
