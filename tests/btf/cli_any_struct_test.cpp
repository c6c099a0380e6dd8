// Any struct of any BTF end to end (issue 36, acceptance 1 and 2): a synthetic perf c2c report
// whose data addresses fall inside mm_struct, rq and task_struct objects of this machine's BTF,
// imported with --object, names every Pareto offset as `pahole -C` of the same BTF does; a small
// C program built twice with -g and encoded by `pahole -J` is diffed and named through its own
// .BTF. Skips with the reason where the kernel has no BTF or pahole or a C compiler is missing.
#include "collector/btf/btf_file.hpp"
#include "collector/store/c2c_tables.hpp"
#include "collector/store/database.hpp"
#include "tests/cli/cli_test_support.hpp"
#include "tests/perfc2c/c2c_text.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <regex>
#include <sstream>

namespace hitmap::testing {
namespace {

using ::testing::HasSubstr;

bool have_tool(const std::string& tool) {
    return std::system(("command -v " + tool + " >/dev/null 2>&1").c_str()) == 0;
}

#define REQUIRE_TOOLS_AND_BTF()                                                                    \
    if (!std::filesystem::exists(btf::kKernelBtfPath))                                             \
        GTEST_SKIP() << "no " << btf::kKernelBtfPath << " (kernel built without BTF)";             \
    if (!have_tool("pahole"))                                                                      \
    GTEST_SKIP() << "no pahole (dwarves) to compare with"

// A member line of `pahole -C`: every line with an offset and size comment, nested inline
// (anonymous) composites' members included; the closing line of an anonymous one is left out.
struct PaholeMember {
    std::string name;
    std::uint64_t offset = 0, size = 0;
    bool leaf = true; // not a struct or union by value: its bytes are its own
};

std::vector<PaholeMember> pahole_members(const std::string& struct_name,
                                         const std::string& btf_file, const TempDir& dir) {
    const CliResult r =
        run_command({"pahole", "-F", "btf", "-C", struct_name, btf_file}, dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
    static const std::regex line(R"(^\t+(.*?)\s*;\s*/\*\s*(\d+)(?::\s*\d+)?\s+(\d+)\s*\*/)");
    static const std::regex fn_ptr(R"(\(\*\s*(\w+)\)\s*\()");
    static const std::regex last_word(R"((\w+)\s*(?:\[[^\]]*\]\s*)*(?::\s*\d+)?$)");
    std::vector<PaholeMember> out;
    std::istringstream in(r.out);
    std::string text;
    while (std::getline(in, text)) {
        std::smatch m;
        if (!std::regex_search(text, m, line))
            continue;
        static const std::regex attribute(R"(\s*__attribute__\(\(.*\)\)$)");
        const std::string decl = std::regex_replace(std::string(m[1]), attribute, "");
        if (decl == "}")
            continue;
        PaholeMember p;
        std::smatch n;
        if (std::regex_search(decl, n, fn_ptr) || std::regex_search(decl, n, last_word))
            p.name = n[1];
        p.offset = std::stoull(m[2]);
        p.size = std::stoull(m[3]);
        p.leaf =
            decl.find('*') != std::string::npos ||
            !(decl.starts_with("struct ") || decl.starts_with("union ") || decl.starts_with("}"));
        out.push_back(p);
    }
    return out;
}

std::int64_t import_id(const std::vector<std::string>& args, const TempDir& dir) {
    std::vector<std::string> all{"import", "perf-c2c"};
    all.insert(all.end(), args.begin(), args.end());
    all.push_back("--json");
    const CliResult r = run_cli(all, dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
    if (r.status != 0)
        return 0;
    return nlohmann::json::parse(r.out)["runs"][0]["id"].get<std::int64_t>();
}

std::uint64_t struct_size(const std::string& name, const std::vector<std::string>& btf,
                          const TempDir& dir) {
    std::vector<std::string> args{"layout", "show", name, "--json"};
    args.insert(args.end(), btf.begin(), btf.end());
    const CliResult r = run_cli(args, dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
    return r.status == 0 ? nlohmann::json::parse(r.out)["size"].get<std::uint64_t>() : 0;
}

// Our field name's member as pahole -C names it: its first path component, without an index.
std::string first_component(const std::string& path) {
    return path.substr(0, path.find_first_of(".["));
}

TEST(CliAnyStruct, KernelStructsOnACaptureAreNamedAsPaholeNamesThem) {
    REQUIRE_TOOLS_AND_BTF();
    TempDir dir;
    struct Object {
        std::string name;
        std::uint64_t base, size = 0;
    };
    std::vector<Object> objects{{"mm_struct", 0xffff888100000000},
                                {"rq", 0xffff888100400000},
                                {"task_struct", 0xffff888100800000}};
    // Eight lines of each struct, spread over it; eight 8-byte offsets on each line.
    std::vector<std::uint64_t> lines;
    for (Object& o : objects) {
        o.size = struct_size(o.name, {}, dir);
        ASSERT_GT(o.size, 512u) << o.name;
        const std::uint64_t line_count = o.size / 64;
        for (std::uint64_t k = 0; k < 8; ++k)
            lines.push_back(o.base + 64 * (k * line_count / 8));
    }
    const auto report = dir / "c2c.txt";
    std::ofstream(report) << synthetic_report(lines.size(), 8,
                                              [&](std::size_t i) { return lines[i]; });
    std::vector<std::string> args{report.string(), "--db", (dir / "c2c.db").string()};
    for (const Object& o : objects)
        args.insert(args.end(), {"--object", fmt::format("{}@{:#x}", o.name, o.base)});
    const std::int64_t id = import_id(args, dir);
    ASSERT_NE(id, 0);

    // What `layout show --json` writes of such a struct reads back as the same layout.
    const CliResult json = run_cli({"layout", "show", "task_struct", "--json"}, dir.path());
    ASSERT_EQ(json.status, 0) << json.err;
    std::ofstream(dir / "task_struct.json") << json.out;
    const CliResult same = run_cli(
        {"layout", "diff", "task_struct=btf", "task_struct=" + (dir / "task_struct.json").string()},
        dir.path());
    EXPECT_EQ(same.status, 0) << same.err;
    EXPECT_THAT(same.out, HasSubstr("0 fields moved to another line, 0 only in A, 0 only in B"));

    auto db = store::Database::open(dir / "c2c.db");
    const auto c2c = store::read_c2c(db, id);
    ASSERT_TRUE(c2c);
    ASSERT_EQ(c2c->objects.size(), 3u);
    std::map<std::string, std::vector<PaholeMember>> pahole;
    for (const Object& o : objects) {
        EXPECT_EQ(c2c->objects[&o - objects.data()].name, fmt::format("{}@{:#x}", o.name, o.base));
        pahole[o.name] = pahole_members(o.name, btf::kKernelBtfPath, dir);
        ASSERT_FALSE(pahole[o.name].empty()) << o.name;
    }
    std::size_t named = 0, gaps = 0;
    ASSERT_EQ(c2c->result.fields.size(), lines.size() * 8) << "one row per Pareto offset";
    for (const auto& f : c2c->result.fields) {
        const Object& o = objects.at(f.line.object);
        const std::uint64_t at = f.line.address + f.offset - o.base;
        std::vector<std::string> candidates;
        bool in_leaf = false;
        for (const PaholeMember& p : pahole[o.name])
            if (at >= p.offset && at < p.offset + std::max<std::uint64_t>(p.size, 1)) {
                candidates.push_back(p.name);
                in_leaf = in_leaf || p.leaf;
            }
        const std::string where = fmt::format("{}+{:#x}: ours '{}', pahole's {}", o.name, at,
                                              f.field_name, fmt::join(candidates, ", "));
        if (f.field_name.starts_with("(")) {
            EXPECT_FALSE(in_leaf) << where; // a hole or padding: no member of pahole's holds it
            ++gaps;
            continue;
        }
        EXPECT_NE(std::find(candidates.begin(), candidates.end(), first_component(f.field_name)),
                  candidates.end())
            << where;
        ++named;
    }
    EXPECT_GT(named, lines.size() * 4);
    RecordProperty("named", static_cast<int>(named));
    RecordProperty("gaps", static_cast<int>(gaps));
}

// A struct of a user program, `pahole -J`-encoded from its -g build.
struct Program {
    std::filesystem::path path;
    bool built = false;
};

Program build_program(const TempDir& dir, const std::string& name, const std::string& members) {
    const auto source = dir / (name + ".c");
    std::ofstream(source) << "struct session {\n"
                          << members << "};\nstruct session the_session;\n"
                          << "int main(void) { return (int)sizeof the_session; }\n";
    Program p{dir / name};
    const CliResult cc =
        run_command({"cc", "-g", "-O0", "-o", p.path.string(), source.string()}, dir.path());
    EXPECT_EQ(cc.status, 0) << cc.err;
    const CliResult j = run_command({"pahole", "-J", p.path.string()}, dir.path());
    EXPECT_EQ(j.status, 0) << j.err;
    p.built = cc.status == 0 && j.status == 0;
    return p;
}

TEST(CliAnyStruct, UserProgramsStructIsDiffedAndNamedThroughItsBtf) {
    if (!have_tool("pahole") || !have_tool("cc"))
        GTEST_SKIP() << "no pahole (dwarves) or C compiler to build and encode a program";
    TempDir dir;
    // v2 puts the hot counter first and pads the read-mostly config onto a line of its own.
    const Program v1 = build_program(dir, "v1",
                                     "  long config[7];\n  long hits;\n  int state;\n"
                                     "  char name[20];\n");
    const Program v2 = build_program(dir, "v2",
                                     "  long hits;\n  int state;\n"
                                     "  long config[7] __attribute__((aligned(64)));\n"
                                     "  char name[20];\n");
    ASSERT_TRUE(v1.built && v2.built);

    const CliResult show =
        run_cli({"layout", "show", "session", "--btf", v1.path.string()}, dir.path());
    ASSERT_EQ(show.status, 0) << show.err;
    EXPECT_THAT(show.out, HasSubstr("hits"));

    const CliResult d = run_cli({"layout", "diff", "session=btf:" + v1.path.string(),
                                 "session=btf:" + v2.path.string(), "--json"},
                                dir.path());
    ASSERT_EQ(d.status, 0) << d.err;
    const auto doc = nlohmann::json::parse(d.out);
    EXPECT_EQ(doc["struct"], "session");
    EXPECT_EQ(doc["a"]["size"], 88);
    EXPECT_EQ(doc["b"]["size"], 192);
    std::map<std::string, std::pair<int, int>> lines; // field -> (A line, B line)
    for (const auto& f : doc["fields"])
        lines[f["name"]] = {f["a"]["line"].get<int>(), f["b"]["line"].get<int>()};
    EXPECT_EQ(lines["hits"], std::pair(0, 0));
    EXPECT_EQ(lines["config"], std::pair(0, 1));
    EXPECT_EQ(lines["state"], std::pair(1, 0));
    EXPECT_EQ(lines["name"], std::pair(1, 1));
    const CliResult text = run_cli(
        {"layout", "diff", "session=btf:" + v1.path.string(), "session=btf:" + v2.path.string()},
        dir.path());
    EXPECT_THAT(text.out, HasSubstr("2 fields moved to another line, 0 only in A, 0 only in B"));

    // `layout show --json` read back is the same layout.
    const CliResult j =
        run_cli({"layout", "show", "session", "--btf", v1.path.string(), "--json"}, dir.path());
    ASSERT_EQ(j.status, 0) << j.err;
    std::ofstream(dir / "session.json") << j.out;
    const CliResult same = run_cli({"layout", "diff", "session=btf:" + v1.path.string(),
                                    "session=" + (dir / "session.json").string()},
                                   dir.path());
    EXPECT_EQ(same.status, 0) << same.err;
    EXPECT_THAT(same.out, HasSubstr("0 fields moved to another line, 0 only in A, 0 only in B"));

    // Placed on a capture through its own BTF: the program's struct names the line's offsets.
    const auto report = dir / "c2c.txt";
    std::ofstream(report) << synthetic_report(
        2, 8, [](std::size_t i) { return std::uint64_t{0x555555558000} + 64 * i; });
    const std::int64_t id =
        import_id({report.string(), "--db", (dir / "c2c.db").string(), "--object",
                   "session@0x555555558000:btf:" + v2.path.string()},
                  dir);
    ASSERT_NE(id, 0);
    auto db = store::Database::open(dir / "c2c.db");
    const auto c2c = store::read_c2c(db, id);
    ASSERT_TRUE(c2c);
    std::vector<std::string> names;
    for (const auto& f : c2c->result.fields)
        names.push_back(f.field_name);
    EXPECT_THAT(names, ::testing::ElementsAre("hits", "state", "(hole before config)",
                                              "(hole before config)", "(hole before config)",
                                              "(hole before config)", "(hole before config)",
                                              "(hole before config)", "config", "config", "config",
                                              "config", "config", "config", "config", "name"));
}

TEST(CliAnyStruct, BadObjectsAreRefusedInOneLine) {
    TempDir dir;
    const auto report = dir / "c2c.txt";
    std::ofstream(report) << synthetic_report(1, 2);
    for (const std::string& spec :
         {std::string("mm_struct"), std::string("@0x10"), std::string("mm_struct@zz"),
          std::string("mm_struct@0x7f0000000000:"), std::string("mm_struct@init_mm"),
          std::string("no_such_struct@0x7f0000000000:btf:") + report.string()}) {
        const CliResult r = run_cli({"import", "perf-c2c", report.string(), "--db",
                                     (dir / "c2c.db").string(), "--object", spec},
                                    dir.path());
        EXPECT_EQ(r.status, 1) << spec;
        EXPECT_EQ(count_lines(r.err), 1) << spec << ": " << r.err;
    }
    EXPECT_FALSE(std::filesystem::exists(dir / "c2c.db"));

    // A symbol resolves through the capturing machine's kallsyms when one is given.
    std::ofstream(dir / "kallsyms") << "ffffffff81000000 T _text\nffffffff83a00000 D my_obj\n";
    const CliResult missing = run_cli(
        {"import", "perf-c2c", report.string(), "--db", (dir / "c2c.db").string(), "--object",
         "page_counter@other_obj:v6.0", "--kallsyms", (dir / "kallsyms").string()},
        dir.path());
    EXPECT_EQ(missing.status, 1);
    EXPECT_THAT(missing.err, HasSubstr("CONFIG_KALLSYMS_ALL"));
    std::ofstream(dir / "c2c2.txt")
        << synthetic_report(1, 2, [](std::size_t) { return std::uint64_t{0xffffffff83a00000}; });
    const std::int64_t id =
        import_id({(dir / "c2c2.txt").string(), "--db", (dir / "ok.db").string(), "--object",
                   "page_counter@my_obj:v6.0", "--kallsyms", (dir / "kallsyms").string()},
                  dir);
    ASSERT_NE(id, 0);
    auto db = store::Database::open(dir / "ok.db");
    const auto c2c = store::read_c2c(db, id);
    ASSERT_TRUE(c2c);
    EXPECT_EQ(c2c->objects[0].name, "my_obj");
    ASSERT_EQ(c2c->result.fields.size(), 2u);
    EXPECT_EQ(c2c->result.fields[0].field_name, "usage");
    EXPECT_EQ(c2c->result.fields[1].field_name, "min");
}

} // namespace
} // namespace hitmap::testing
