#include "collector/btf/layout_source.hpp"

#include "collector/btf/btf_file.hpp"
#include "collector/btf/engine_layout.hpp"
#include "collector/btf/struct_reader.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_error.hpp"
#include "engine/layout/layout_loader.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace hitmap::btf {

namespace {
constexpr std::string_view kBtf = "btf";
constexpr std::string_view kBtfFile = "btf:";
} // namespace

bool names_btf(std::string_view name_or_file) {
    return name_or_file == kBtf || name_or_file.starts_with(kBtfFile);
}

engine::Layout resolve_layout(std::string_view struct_name, std::string_view name_or_file) {
    if (!names_btf(name_or_file))
        return engine::resolve_layout(struct_name, name_or_file);
    const engine::StructType* type = engine::find_struct_type(struct_name);
    if (!type)
        throw engine::LayoutError(fmt::format("unknown struct '{}'", struct_name));
    const std::string_view path =
        name_or_file.substr(std::min(kBtfFile.size(), name_or_file.size()));
    if (name_or_file != kBtf && path.empty())
        throw engine::LayoutError(
            fmt::format("'{}' names no BTF file (btf:FILE or btf:MODULE)", name_or_file));
    const BtfFile file =
        name_or_file == kBtf ? BtfFile::running_kernel() : BtfFile::open(btf_path(path));
    return to_engine_layout(read_struct_layout(file, struct_name), *type);
}

} // namespace hitmap::btf
