// hitmap-collect layout: struct layouts read from BTF (the running kernel's or a file's), and
// two layouts of one struct compared line by line.
#include "collector/btf/btf_file.hpp"
#include "collector/btf/layout_diff.hpp"
#include "collector/btf/layout_json.hpp"
#include "collector/btf/layout_text.hpp"
#include "collector/btf/struct_reader.hpp"
#include "collector/cli/cli_options.hpp"
#include "collector/cli/commands.hpp"

#include <fmt/format.h>
#include <memory>
#include <optional>

namespace hitmap::cli {

namespace {

struct ShowOptions {
    std::string struct_name;
    std::optional<std::string> btf_file;
    std::optional<unsigned> depth;
    bool json = false;
};

struct DiffOptions {
    std::string a, b;
    bool json = false;
};

std::string json_dump(const nlohmann::ordered_json& doc) {
    return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

void show(const ShowOptions& o) {
    const btf::BtfFile file =
        o.btf_file ? btf::BtfFile::open(*o.btf_file) : btf::BtfFile::running_kernel();
    const btf::StructLayout layout = btf::read_struct_layout(file, o.struct_name);
    const unsigned depth = o.depth.value_or(~0u);
    if (o.json)
        fmt::print("{}\n", json_dump(btf::layout_json(layout, depth)));
    else
        fmt::print("{}", btf::format_layout_text(layout, depth));
}

void diff(const DiffOptions& o) {
    const engine::Layout a = parse_layout(o.a);
    const engine::Layout b = parse_layout(o.b);
    const btf::LayoutDiff d = btf::diff_layouts(a, b);
    if (o.json)
        fmt::print("{}\n", json_dump(btf::diff_json(d)));
    else
        fmt::print("{}", btf::format_diff_text(d));
}

} // namespace

void add_layout_command(CLI::App& app) {
    auto* layout = app.add_subcommand(
        "layout", "Struct layouts from BTF (the running kernel's or a file's), and two layouts "
                  "of one struct compared line by line");
    layout->require_subcommand(1);

    auto s = std::make_shared<ShowOptions>();
    auto* show_cmd = layout->add_subcommand(
        "show", "Print a struct as BTF lays it out: members with offsets and sizes, nested "
                "members as dotted paths, bitfields, zero-size markers, holes and 64-byte cache "
                "line boundaries");
    show_cmd->add_option("struct", s->struct_name, "Struct (or union) name, e.g. page_counter")
        ->required();
    show_cmd->add_option("--btf", s->btf_file,
                         "BTF or ELF file (default: the running kernel's /sys/kernel/btf/vmlinux)");
    show_cmd->add_option("--depth", s->depth,
                         "Show members nested at most this deep (0: the struct's own members)");
    show_cmd->add_flag("--json", s->json,
                       "Print JSON: the layout format --layout reads, plus every member");
    show_cmd->callback([s] { show(*s); });

    auto d = std::make_shared<DiffOptions>();
    auto* diff_cmd = layout->add_subcommand(
        "diff", "Show which fields of a struct moved to another cache line between two layouts, "
                "and which left or joined the line of the field every charge writes");
    const char* spec = "STRUCT=VERSION|FILE.json|btf|btf:FILE (e.g. page_counter=v6.0)";
    diff_cmd->add_option("a", d->a, spec)->required();
    diff_cmd->add_option("b", d->b, spec)->required();
    diff_cmd->add_flag("--json", d->json, "Print JSON");
    diff_cmd->callback([d] { diff(*d); });
}

} // namespace hitmap::cli
