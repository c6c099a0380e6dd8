// libFuzzer target for BTF layouts: any bytes either load as BTF or throw BtfReadError, both
// standalone and as a module's split BTF over a fixed base; every struct and union of BTF that
// loads is read (or refused with BtfFormatError), printed as text and JSON and, when the engine
// models a struct of that name, mapped onto the engine's fields, never crashing. Seeds:
// fuzz_btf_layout_seeds writes hand-built BTF into the corpus.
#include "collector/btf/btf_file.hpp"
#include "collector/btf/engine_layout.hpp"
#include "collector/btf/errors.hpp"
#include "collector/btf/layout_json.hpp"
#include "collector/btf/layout_text.hpp"
#include "collector/btf/struct_reader.hpp"
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_error.hpp"
#include "tests/fuzz/fuzz_btf_base.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>

namespace {

using namespace hitmap::btf;

void exercise(const StructLayout& layout) {
    (void)format_layout_text(layout);
    (void)layout_json(layout).dump(); // names are identifiers: dump() must not throw
    if (const auto* type = hitmap::engine::find_struct_type(layout.name)) {
        try {
            (void)to_engine_layout(layout, *type);
        } catch (const hitmap::engine::LayoutError&) {
        }
    }
    // Holes lie inside the struct and between members, never over one.
    for (const Hole& h : find_holes(layout))
        if (h.bits == 0 || h.before > layout.members.size())
            std::abort();
}

void exercise_all(const BtfFile& file) {
    for (const std::string& name : file.composite_names()) {
        try {
            exercise(read_struct_layout(file, name));
        } catch (const BtfFormatError&) {
        } catch (const StructNotFound&) { // libbpf's lookup never finds one named "void"
        }
    }
}

std::shared_ptr<const BtfFile> split_base() {
    static const std::shared_ptr<const BtfFile> base = [] {
        struct btf* b = hitmap::fuzz::new_split_base();
        std::uint32_t size = 0;
        const auto* data = static_cast<const std::byte*>(btf__raw_data(b, &size));
        auto file =
            std::make_shared<const BtfFile>(BtfFile::from_bytes(std::span(data, size), "base.btf"));
        btf__free(b);
        return file;
    }();
    return base;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span bytes(reinterpret_cast<const std::byte*>(data), size);
    try {
        exercise_all(BtfFile::from_bytes(bytes, "fuzz.btf"));
    } catch (const BtfReadError&) {
    }
    try {
        exercise_all(BtfFile::from_bytes(bytes, "fuzz-split.btf", split_base()));
    } catch (const BtfReadError&) {
    }
    return 0;
}
