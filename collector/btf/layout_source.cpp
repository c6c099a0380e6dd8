#include "collector/btf/layout_source.hpp"

#include "collector/btf/btf_file.hpp"
#include "collector/btf/engine_layout.hpp"
#include "collector/btf/layout_json.hpp"
#include "collector/btf/struct_reader.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_error.hpp"
#include "engine/layout/layout_loader.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

namespace hitmap::btf {

namespace {
constexpr std::string_view kBtf = "btf";
constexpr std::string_view kBtfFile = "btf:";
// The BTF a "btf" or "btf:FILE|MODULE" spec names.
BtfFile btf_of(std::string_view spec) {
    if (spec == kBtf)
        return BtfFile::running_kernel();
    const std::string_view path = spec.substr(kBtfFile.size());
    if (path.empty())
        throw engine::LayoutError(
            fmt::format("'{}' names no BTF file (btf:FILE or btf:MODULE)", spec));
    return BtfFile::open(btf_path(path));
}

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
    return to_engine_layout(read_struct_layout(btf_of(name_or_file), struct_name), *type);
}

StructLayout resolve_struct_layout(std::string_view struct_name, std::string_view spec) {
    if (names_btf(spec))
        return read_struct_layout(btf_of(spec), struct_name);
    if (!spec.ends_with(".json"))
        throw engine::LayoutError(fmt::format("layout '{}' of struct {} is neither btf, btf:FILE "
                                              "nor a .json file",
                                              spec, struct_name));
    const std::filesystem::path path(spec);
    std::ifstream in(path);
    if (!in)
        throw engine::LayoutError(fmt::format("cannot read layout file {}", path.string()));
    std::ostringstream text;
    text << in.rdbuf();
    StructLayout layout = parse_struct_layout_json(text.str(), path.filename().string());
    if (layout.name != struct_name)
        throw engine::LayoutError(
            fmt::format("{} describes struct {}, not {}", spec, layout.name, struct_name));
    return layout;
}

} // namespace hitmap::btf
