// hitmap-collect layout: struct layouts read from BTF (the running kernel's or a file's), and
// two layouts of one struct compared line by line.
#include "collector/btf/btf_file.hpp"
#include "collector/btf/layout_diff.hpp"
#include "collector/btf/layout_json.hpp"
#include "collector/btf/layout_source.hpp"
#include "collector/btf/layout_text.hpp"
#include "collector/btf/struct_reader.hpp"
#include "collector/cli/cli_options.hpp"
#include "collector/cli/commands.hpp"
#include "collector/cli/layout_spec.hpp"
#include "engine/layout/builtin_layouts.hpp"

#include <fmt/format.h>
#include <memory>
#include <optional>

namespace hitmap::cli {

namespace {

struct ShowOptions {
    std::string struct_name;
    std::optional<std::string> btf_file;
    std::optional<std::filesystem::path> btf_base;
    std::optional<unsigned> depth;
    bool json = false;
};

struct DiffOptions {
    std::string a, b;
    CommonOptions common; // --db: where STRUCT=run:ID and STRUCT=hash:HASH are looked up
};

std::string json_dump(const nlohmann::ordered_json& doc) {
    return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

void show(const ShowOptions& o) {
    const btf::BtfFile file = o.btf_file
                                  ? btf::BtfFile::open(btf::btf_path(*o.btf_file), o.btf_base)
                                  : btf::BtfFile::running_kernel();
    const btf::StructLayout layout = btf::read_struct_layout(file, o.struct_name);
    const unsigned depth = o.depth.value_or(~0u);
    if (o.json)
        fmt::print("{}\n", json_dump(btf::layout_json(layout, depth)));
    else
        fmt::print("{}", btf::format_layout_text(layout, depth));
}

// A struct the engine does not model, named by two layouts that are not stored ones: diffed
// member by member as BTF (or the JSON `show` writes) lays it out.
std::optional<btf::LayoutDiff> any_struct_diff(const DiffOptions& o) {
    const std::size_t a_eq = o.a.find('='), b_eq = o.b.find('=');
    // Malformed or stored: the engine's path says what is wrong or reads the database.
    if (a_eq == std::string::npos || b_eq == std::string::npos || names_stored_layout(o.a) ||
        names_stored_layout(o.b))
        return std::nullopt;
    const std::string a_struct = o.a.substr(0, a_eq), b_struct = o.b.substr(0, b_eq);
    if (a_struct.empty() || engine::find_struct_type(a_struct) ||
        engine::find_struct_type(b_struct))
        return std::nullopt;
    return btf::diff_layouts(btf::resolve_struct_layout(a_struct, o.a.substr(a_eq + 1)),
                             btf::resolve_struct_layout(b_struct, o.b.substr(b_eq + 1)));
}

void diff(const DiffOptions& o) {
    if (const auto d = any_struct_diff(o)) {
        fmt::print("{}", o.common.json ? json_dump(btf::diff_json(*d)) + "\n"
                                       : btf::format_diff_text(*d));
        return;
    }
    std::optional<store::Database> db; // opened for the first stored layout named
    const auto resolve = [&](const std::string& assignment) {
        if (!names_stored_layout(assignment))
            return parse_layout(assignment);
        if (!db)
            db.emplace(store::Database::open(o.common.db,
                                             {.create_if_missing = false, .read_only = true}));
        return stored_layout(*db, assignment);
    };
    const engine::Layout a = resolve(o.a);
    const engine::Layout b = resolve(o.b);
    const btf::LayoutDiff d = btf::diff_layouts(a, b);
    if (o.common.json)
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
    auto* btf_opt = show_cmd->add_option(
        "--btf", s->btf_file,
        "BTF or ELF file, or a loaded module's name for /sys/kernel/btf/MODULE when no file of "
        "that name is in the working directory (default: the running kernel's "
        "/sys/kernel/btf/vmlinux). A module's BTF (a /sys/kernel/btf file, a .ko) is split BTF, "
        "read over its base: see --btf-base");
    show_cmd
        ->add_option("--btf-base", s->btf_base,
                     "The vmlinux (BTF or ELF) a module's split BTF was built against (default: "
                     "/sys/kernel/btf/vmlinux), e.g. for a .ko of another kernel")
        ->needs(btf_opt);
    show_cmd->add_option("--depth", s->depth,
                         "Show members nested at most this deep (0: the struct's own members)");
    show_cmd->add_flag("--json", s->json,
                       "Print JSON: the layout format --layout reads, plus every member");
    show_cmd->callback([s] { show(*s); });

    auto d = std::make_shared<DiffOptions>();
    auto* diff_cmd = layout->add_subcommand(
        "diff", "Show which fields of a struct moved to another cache line between two layouts, "
                "and which left or joined the line of the field every charge writes");
    const char* spec = "STRUCT=VERSION|FILE.json|btf|btf:FILE|btf:MODULE (e.g. page_counter=v6.0, "
                       "rq=btf:vmlinux, foo=btf:./prog for a -g program after `pahole -J`)";
    const std::string help =
        std::string(spec) + ", or a layout stored in --db: STRUCT=run:ID (the one run ID "
                            "recorded) or STRUCT=hash:HASH (4 or more digits of one `show` prints)";
    diff_cmd->add_option("a", d->a, help)->required();
    diff_cmd->add_option("b", d->b, help)->required();
    diff_cmd->add_option("--db", d->common.db, "SQLite database of run: and hash: layouts")
        ->capture_default_str();
    diff_cmd->add_flag("--json", d->common.json, "Print JSON");
    diff_cmd->callback([d] { diff(*d); });
}

} // namespace hitmap::cli
