// Peer check: every member of 30 kernel structs (mem_cgroup, page_counter, obj_cgroup, sock,
// tcp_sock, net_device, ...) at the offset and size pahole (Debian dwarves) reads from the same
// BTF, /sys/kernel/btf/vmlinux. Complete, not only the top level: our listing expands nested
// structs into dotted paths, so each nested struct is compared against `pahole -C` of its own
// type at the member's offset. (`pahole -E` would expand in one go, but 1.24 silently drops
// members from some expansions: task_struct's se loses 56 bytes of members.) Split BTF too,
// read over its base as `pahole --btf_base` reads it: a hand-built module's, and the structs of
// a module loaded on this machine where one has BTF in /sys/kernel/btf.
#include "collector/btf/btf_file.hpp"
#include "collector/btf/struct_reader.hpp"
#include "tests/btf/btf_builder.hpp"

#include <algorithm>
#include <bpf/btf.h>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <unistd.h>

namespace hitmap::btf {
namespace {

// One member as both sides list it: anonymous structs and unions under their parent's path.
struct Flat {
    std::string path;
    bool anonymous = false;
    std::uint64_t bit_offset = 0;
    std::uint32_t size = 0;

    bool operator==(const Flat&) const = default;
    std::string text() const {
        return fmt::format("{}{} @{}:{} size {}", anonymous ? "{anon} " : "", path, bit_offset / 8,
                           bit_offset % 8, size);
    }
};

// A member line of pahole's output, or an inline struct/union it printed around members.
struct Node {
    std::string name;
    std::string type;
    std::string dims; // "[4]" for an array
    std::uint64_t offset = 0;
    std::uint32_t bit = 0;
    std::uint32_t size = 0;
    bool bitfield = false;
    bool inline_composite = false;
    std::vector<Node> children;
};

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::optional<std::string> command_output(const std::string& command) {
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    if (!pipe)
        return std::nullopt;
    std::string out;
    char buffer[65536];
    while (const std::size_t n = fread(buffer, 1, sizeof buffer, pipe.get()))
        out.append(buffer, n);
    return out;
}

// `pahole -C` output for any number of types, parsed into structs and typedefs by name.
class Pahole {
public:
    // pahole's arguments naming the BTF: a file, or "--btf_base BASE FILE" for split BTF.
    explicit Pahole(std::string btf = kKernelBtfPath)
        : btf_(std::move(btf)) {}

    // Runs pahole for every name not asked before. pahole stops at the first name it does not
    // know (printing the ones before it), so the names after an unknown one are asked again.
    void load(const std::set<std::string>& names) {
        std::vector<std::string> fresh;
        for (const std::string& n : names)
            if (asked_.insert(n).second)
                fresh.push_back(n);
        while (!fresh.empty()) {
            const auto out = command_output(
                fmt::format("pahole -C {} {} 2>/dev/null", fmt::join(fresh, ","), btf_));
            ASSERT_TRUE(out) << "pahole did not run";
            parse(*out);
            const auto unknown = std::find_if(fresh.begin(), fresh.end(), [&](const auto& n) {
                return !composites_.contains(n) && !typedef_blocks_.contains(n) &&
                       !aliases_.contains(n);
            });
            fresh.erase(fresh.begin(), unknown == fresh.end() ? unknown : unknown + 1);
        }
    }

    std::optional<std::uint32_t> size_of(const std::string& name) const {
        const auto it = sizes_.find(name);
        return it == sizes_.end() ? std::nullopt : std::optional(it->second);
    }

    // The members of `type` ("struct x", "union x", "x_t", "const struct x") if it is a struct
    // or union; nullopt for a base type, pointer or enum. Types not loaded yet are noted in
    // `wanted`.
    std::optional<const std::vector<Node>*> members(std::string type, std::set<std::string>& wanted,
                                                    int depth = 0) const {
        for (const char* q : {"const ", "volatile "})
            while (type.starts_with(q))
                type = type.substr(std::string(q).size());
        bool tagged = false;
        for (const char* tag : {"struct ", "union "})
            if (type.starts_with(tag)) {
                type = type.substr(std::string(tag).size());
                tagged = true;
            }
        // pahole stops at the first name it does not find, so one-word base types (int, char,
        // _Bool) must not be asked for.
        static const std::set<std::string> base{"char", "int", "_Bool", "float", "double", "void"};
        if (depth > 16 || type.find_first_of(" *(") != std::string::npos || type.empty() ||
            base.contains(type))
            return std::nullopt;
        if (!asked_.contains(type)) {
            wanted.insert(type);
            return std::nullopt;
        }
        if (tagged) {
            const auto it = composites_.find(type);
            return it == composites_.end() ? std::nullopt : std::optional(&it->second);
        }
        if (const auto it = typedef_blocks_.find(type); it != typedef_blocks_.end())
            return &it->second;
        if (const auto it = aliases_.find(type); it != aliases_.end())
            return members(it->second, wanted, depth + 1);
        return std::nullopt;
    }

private:
    static Node leaf(const std::string& line) {
        static const std::regex comment(R"(^(.*);\s*/\*\s*(\d+)(?::\s*(\d+))?\s+(\d+)\s*\*/$)");
        std::smatch m;
        if (!std::regex_match(line, m, comment))
            throw std::runtime_error("unparsed pahole line: " + line);
        Node n;
        n.offset = std::stoull(m[2]);
        n.bit = m[3].matched ? std::stoul(m[3]) : 0;
        n.size = std::stoul(m[4]);
        std::string decl =
            std::regex_replace(m[1].str(), std::regex(R"(__attribute__\(\(.*\)\))"), "");
        decl = trim(decl);
        if (const auto fp = decl.find("(*"); fp != std::string::npos) {
            n.name = decl.substr(fp + 2, decl.find(')', fp) - fp - 2);
            n.type = "function pointer *";
            return n;
        }
        static const std::regex bits(R"(^(.*\S)\s*:\s*\d+$)");
        if (std::regex_match(decl, m, bits)) {
            n.bitfield = true;
            decl = m[1];
        }
        static const std::regex dims(R"(^(.*?)((\[\d*\])+)$)");
        if (std::regex_match(decl, m, dims)) {
            n.dims = m[2];
            decl = m[1];
        }
        static const std::regex name(R"(^(.*?)\s*([A-Za-z_][A-Za-z0-9_]*)$)");
        if (!std::regex_match(decl, m, name))
            throw std::runtime_error("no member name in pahole line: " + line);
        n.type = trim(m[1]);
        n.name = m[2];
        return n;
    }

    // "} name[4]; /* 1368 160 */" or "}; /* 448 192 */" closing an inline struct or union.
    static void close_inline(Node& n, const std::string& line) {
        static const std::regex close(
            R"(^\}\s*([A-Za-z_][A-Za-z0-9_]*)?((\[\d*\])*)\s*;\s*/\*\s*(\d+)\s+(\d+)\s*\*/$)");
        const std::string bare =
            std::regex_replace(line, std::regex(R"(__attribute__\(\(.*\)\))"), "");
        std::smatch m;
        if (!std::regex_match(bare, m, close))
            throw std::runtime_error("unparsed pahole line: " + line);
        n.name = m[1];
        n.dims = m[2];
        n.offset = std::stoull(m[4]);
        n.size = std::stoul(m[5]);
    }

    void parse(const std::string& text) {
        static const std::regex opens(R"(^(struct|union) ([A-Za-z_][A-Za-z0-9_]*) \{$)");
        static const std::regex block_end(R"(^\}\s*([A-Za-z_][A-Za-z0-9_]*)?.*;$)");
        std::istringstream in(text);
        std::string raw;
        std::vector<Node> open; // open[0] is the block being read
        bool typedef_block = false;
        bool skipping = false; // an enum's body
        while (std::getline(in, raw)) {
            const std::string line = trim(raw);
            std::smatch m;
            if (skipping) {
                skipping = !line.starts_with("}");
                continue;
            }
            if (open.empty()) {
                if (std::regex_match(line, m, opens)) {
                    open.push_back(Node{m[2], m[1], "", 0, 0, 0, false, true, {}});
                    typedef_block = false;
                } else if (line == "typedef struct {" || line == "typedef union {") {
                    open.push_back(Node{});
                    typedef_block = true;
                } else if (line.ends_with("{")) {
                    skipping = true;
                } else if (line.starts_with("typedef ") && line.ends_with(";")) {
                    const std::string body = line.substr(8, line.size() - 9);
                    const auto space = body.find_last_of(" *");
                    aliases_[body.substr(space + 1)] = trim(body.substr(0, space + 1));
                }
                continue;
            }
            static const std::regex size_line(R"(^/\* size: (\d+),.*)");
            if (open.size() == 1 && !typedef_block && std::regex_match(line, m, size_line))
                sizes_[open.back().name] = std::stoul(m[1]);
            // pahole's own reconstructions carry no offset ("unsigned int :0;", which it
            // infers before a bitfield that starts a new unit); BTF has no such member.
            if (line.empty() || line.starts_with("/*") ||
                (!line.starts_with("}") && line.ends_with(";") &&
                 line.find("/*") == std::string::npos))
                continue;
            if (line.ends_with("{")) {
                Node n;
                n.inline_composite = true;
                n.type = trim(line.substr(0, line.size() - 1));
                open.push_back(n);
            } else if (line.starts_with("}") && open.size() == 1) {
                if (typedef_block && std::regex_match(line, m, block_end))
                    typedef_blocks_[m[1]] = std::move(open.back().children);
                else if (!typedef_block)
                    composites_[open.back().name] = std::move(open.back().children);
                open.clear();
            } else if (line.starts_with("}")) {
                Node n = std::move(open.back());
                open.pop_back();
                close_inline(n, line);
                open.back().children.push_back(std::move(n));
            } else {
                open.back().children.push_back(leaf(line));
            }
        }
    }

    std::string btf_;
    std::set<std::string> asked_;
    std::map<std::string, std::uint32_t> sizes_; // of structs and unions, from "/* size: N"
    std::map<std::string, std::vector<Node>> composites_;
    std::map<std::string, std::vector<Node>> typedef_blocks_;
    std::map<std::string, std::string> aliases_;
};

std::string element_path(const std::string& path, const std::string& dims) {
    std::string out = path;
    for (char c : dims)
        if (c == '[')
            out += "[0]";
    return out;
}

std::string join(const std::string& prefix, const std::string& name) {
    return prefix.empty() ? name : prefix + "." + name;
}

// pahole's members of one struct level at `base`, nested structs expanded as ours are: named
// members of struct type with bytes of their own, arrays of them by their first element.
void flatten(const Pahole& pahole, const std::vector<Node>& nodes, const std::string& prefix,
             std::uint64_t base, std::vector<Flat>& out, std::set<std::string>& wanted) {
    for (const Node& n : nodes) {
        const std::uint64_t bit = base + n.offset * 8 + n.bit;
        if (n.inline_composite) {
            // Inline members are printed at offsets from the block's start, like their parent.
            const std::string path = n.name.empty() ? prefix : join(prefix, n.name);
            out.push_back({path, n.name.empty(), bit, n.size});
            if (n.size > 0)
                flatten(pahole, n.children, element_path(path, n.dims), base, out, wanted);
            continue;
        }
        const std::string path = join(prefix, n.name);
        out.push_back({path, false, bit, n.size});
        if (n.bitfield || n.size == 0)
            continue;
        if (const auto members = pahole.members(n.type, wanted))
            flatten(pahole, **members, element_path(path, n.dims), bit, out, wanted);
    }
}

std::vector<Flat> ours(const StructLayout& l) {
    std::vector<Flat> out;
    for (const Member& m : l.members)
        out.push_back({m.path, m.kind == MemberKind::anonymous, m.bit_offset, m.size});
    return out;
}

// The structs compared: those the issue names, the memcg and slab structs the engine models,
// and a spread of large, heavily nested ones (bitfields, markers, unions, function pointers).
// Not struct slab: pahole 1.24 prints its freelist_aba_t, a typedef of an anonymous union, as
// "typedef union  freelist_aba_t;" without members, so it cannot check ours there.
const std::vector<std::string> kStructs{"mem_cgroup",
                                        "page_counter",
                                        "obj_cgroup",
                                        "sock",
                                        "tcp_sock",
                                        "net_device",
                                        "cgroup_subsys_state",
                                        "mem_cgroup_per_node",
                                        "lruvec",
                                        "percpu_ref",
                                        "cgroup",
                                        "css_set",
                                        "task_struct",
                                        "mm_struct",
                                        "vm_area_struct",
                                        "page",
                                        "folio",
                                        "bio",
                                        "kmem_cache",
                                        "sk_buff",
                                        "inode",
                                        "file",
                                        "dentry",
                                        "super_block",
                                        "address_space",
                                        "zone",
                                        "pglist_data",
                                        "inet_sock",
                                        "socket",
                                        "work_struct"};

bool have_pahole() {
    return command_output("command -v pahole").value_or("").starts_with("/");
}

// Every member of `structs` in `file` against pahole's reading of the same BTF; the number of
// members compared.
std::size_t compare_with_pahole(const BtfFile& file, Pahole& pahole,
                                const std::vector<std::string>& structs) {
    pahole.load({structs.begin(), structs.end()});
    // Load the struct types the expansions reach until none is missing.
    std::map<std::string, std::vector<Flat>> theirs;
    for (int round = 0; round < 32; ++round) {
        std::set<std::string> wanted;
        for (const std::string& s : structs) {
            std::vector<Flat> flat;
            if (const auto members = pahole.members("struct " + s, wanted))
                flatten(pahole, **members, "", 0, flat, wanted);
            theirs[s] = std::move(flat);
        }
        if (wanted.empty())
            break;
        pahole.load(wanted);
    }
    std::size_t members = 0;
    for (const std::string& s : structs) {
        SCOPED_TRACE(s);
        if (theirs[s].empty()) {
            ADD_FAILURE() << "pahole printed no struct " << s;
            continue;
        }
        const StructLayout layout = read_struct_layout(file, s);
        EXPECT_EQ(layout.size, pahole.size_of(s));
        const std::vector<Flat> mine = ours(layout);
        const std::size_t n = std::min(mine.size(), theirs[s].size());
        for (std::size_t i = 0; i < n; ++i)
            if (!(mine[i] == theirs[s][i])) {
                ADD_FAILURE() << "member " << i << ": ours " << mine[i].text() << ", pahole "
                              << theirs[s][i].text();
                break;
            }
        EXPECT_EQ(mine.size(), theirs[s].size());
        members += mine.size();
    }
    return members;
}

TEST(PaholePeer, EveryMemberOfThirtyKernelStructsMatchesPahole) {
    if (!std::filesystem::exists(kKernelBtfPath))
        GTEST_SKIP() << "no " << kKernelBtfPath
                     << ": the kernel exports no BTF (CONFIG_DEBUG_INFO_BTF), nothing to compare";
    if (!have_pahole())
        GTEST_SKIP() << "pahole not installed (Debian package dwarves, scripts/install-deps)";
    Pahole pahole;
    const std::size_t members = compare_with_pahole(BtfFile::running_kernel(), pahole, kStructs);
    std::printf("compared %zu structs, %zu members, with pahole\n", kStructs.size(), members);
}

// A module's split BTF as pahole reads it over its base (--btf_base): the hand-built one, whose
// struct nests a base struct.
TEST(PaholePeer, AHandBuiltModulesSplitBtfMatchesPahole) {
    if (!have_pahole())
        GTEST_SKIP() << "pahole not installed (Debian package dwarves, scripts/install-deps)";
    const testing::ModuleBtf m;
    const auto dir = std::filesystem::temp_directory_path() /
                     ("hitmap-pahole-split-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    testing::write_bytes(dir / "base.btf", m.base.bytes());
    testing::write_bytes(dir / "mod.btf", m.module.bytes());
    Pahole pahole(
        fmt::format("--btf_base {} {}", (dir / "base.btf").string(), (dir / "mod.btf").string()));
    const BtfFile file = BtfFile::open(dir / "mod.btf", dir / "base.btf");
    EXPECT_EQ(compare_with_pahole(file, pahole, {"mod_stats", "list_head"}), 7u);
    std::filesystem::remove_all(dir);
}

// Every struct a module of this machine defines (up to 30), from /sys/kernel/btf/MODULE over
// vmlinux, as `pahole -C STRUCT --btf_base /sys/kernel/btf/vmlinux /sys/kernel/btf/MODULE`
// reads them.
TEST(PaholePeer, ALoadedModulesStructsMatchPahole) {
    if (!have_pahole())
        GTEST_SKIP() << "pahole not installed (Debian package dwarves, scripts/install-deps)";
    std::error_code ec;
    std::optional<std::filesystem::path> module;
    for (const auto& entry : std::filesystem::directory_iterator(kKernelBtfDir, ec))
        if (entry.path() != kKernelBtfPath && (!module || entry.path() < *module))
            module = entry.path();
    if (!module)
        GTEST_SKIP() << "no module BTF in " << kKernelBtfDir
                     << " (no module loaded, a kernel without modules, or no "
                        "CONFIG_DEBUG_INFO_BTF_MODULES)";
    const BtfFile file = BtfFile::open(*module);
    std::vector<std::string> structs;
    for (std::uint32_t id = btf__type_cnt(file.base()->get());
         id < btf__type_cnt(file.get()) && structs.size() < 30; ++id) {
        const btf_type* t = btf__type_by_id(file.get(), id);
        const char* name = btf__name_by_offset(file.get(), t->name_off);
        if (btf_is_struct(t) && name && *name &&
            std::find(structs.begin(), structs.end(), name) == structs.end() &&
            btf__find_by_name_kind(file.get(), name, BTF_KIND_STRUCT) == static_cast<int>(id))
            structs.emplace_back(name);
    }
    if (structs.empty())
        GTEST_SKIP() << *module << " defines no struct of its own";
    Pahole pahole(fmt::format("--btf_base {} {}", kKernelBtfPath, module->string()));
    const std::size_t members = compare_with_pahole(file, pahole, structs);
    std::printf("compared %zu structs of %s, %zu members, with pahole\n", structs.size(),
                module->c_str(), members);
}

} // namespace
} // namespace hitmap::btf
