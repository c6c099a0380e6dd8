// User layouts from JSON: parsing, validation errors, resolve_layout, and a layout that lacks a
// field the charge code needs.
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_error.hpp"
#include "engine/layout/layout_loader.hpp"
#include "engine/memcg/page_counter.hpp"

#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace hitmap::engine {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using json = nlohmann::json;

// The JSON form of a built-in layout, the starting point every invalid case mutates.
json to_json(const Layout& layout, std::string_view version) {
    json fields = json::array();
    for (FieldId f = 0; f < layout.placement.size(); ++f)
        if (layout.has(f))
            fields.push_back({{"name", std::string(layout.field_name(f))},
                              {"offset", layout.at(f).offset},
                              {"size", layout.at(f).size}});
    return {{"struct", layout.type->name},
            {"version", std::string(version)},
            {"size", layout.size},
            {"align", layout.align},
            {"fields", fields}};
}

json v61_json() {
    return to_json(*find_builtin_layout("page_counter", "v6.1"), "my-try");
}
json v615_json() {
    return to_json(*find_builtin_layout("page_counter", "v6.15"), "my-try");
}

json& field(json& doc, std::string_view name) {
    for (json& f : doc["fields"])
        if (f["name"] == name)
            return f;
    throw std::runtime_error("no such field in test document");
}

// The message of the LayoutError that parsing `doc` throws ("" if it does not throw).
std::string parse_error(const std::string& text) {
    try {
        parse_layout_json(text, "test.json");
    } catch (const LayoutError& e) {
        return e.what();
    }
    return "";
}
std::string parse_error(const json& doc) {
    return parse_error(doc.dump());
}

void expect_same_layout(const Layout& a, const Layout& b) {
    EXPECT_EQ(a.type, b.type);
    EXPECT_EQ(a.size, b.size);
    EXPECT_EQ(a.align, b.align);
    ASSERT_EQ(a.placement.size(), b.placement.size());
    for (FieldId f = 0; f < a.placement.size(); ++f) {
        ASSERT_EQ(a.has(f), b.has(f)) << a.field_name(f);
        if (a.has(f)) {
            EXPECT_EQ(a.at(f).offset, b.at(f).offset) << a.field_name(f);
            EXPECT_EQ(a.at(f).size, b.at(f).size) << a.field_name(f);
        }
    }
}

class TempDir {
public:
    TempDir() {
        path_ = std::filesystem::temp_directory_path() /
                ("hitmap_layout_test_" + std::to_string(::getpid()) + "_" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(path_);
    }
    ~TempDir() { std::filesystem::remove_all(path_); }
    std::filesystem::path write(const std::string& name, const std::string& text) const {
        const auto p = path_ / name;
        std::ofstream(p) << text;
        return p;
    }

private:
    std::filesystem::path path_;
};

TEST(LayoutJson, ValidDocumentRoundTrips) {
    for (const Layout& builtin : builtin_layouts()) {
        const Layout parsed = parse_layout_json(to_json(builtin, "copy").dump(), "x.json");
        EXPECT_EQ(parsed.version, "copy");
        expect_same_layout(parsed, builtin);
    }
}

TEST(LayoutJson, VersionDefaultsToOriginAndAlignTo8) {
    json doc = to_json(*find_builtin_layout("page_counter", "v6.0"), "");
    doc.erase("version");
    doc.erase("align");
    const Layout l = parse_layout_json(doc.dump(), "mine.json");
    EXPECT_EQ(l.version, "mine.json");
    EXPECT_EQ(l.align, 8u);
    expect_same_layout(l, *find_builtin_layout("page_counter", "v6.0"));
}

TEST(LayoutJson, FileRoundTrip) {
    TempDir dir;
    json doc = v615_json();
    const auto path = dir.write("today.json", doc.dump(2));
    const Layout l = load_layout_file(path);
    EXPECT_EQ(l.version, "my-try");
    expect_same_layout(l, *find_builtin_layout("page_counter", "v6.15"));

    doc.erase("version");
    const Layout unnamed = load_layout_file(dir.write("unnamed.json", doc.dump()));
    EXPECT_EQ(unnamed.version, "unnamed.json"); // the file name, not the full path
}

TEST(LayoutJson, NotJson) {
    EXPECT_THAT(parse_error(std::string("{\"struct\": \"page_counter\", ")),
                AllOf(HasSubstr("test.json"), HasSubstr("not valid JSON")));
}

TEST(LayoutJson, MissingKeyIsMalformed) {
    json doc = v61_json();
    doc.erase("size");
    EXPECT_THAT(parse_error(doc), HasSubstr("malformed layout"));
    EXPECT_THAT(parse_error(std::string("[1, 2]")), HasSubstr("malformed layout"));
}

TEST(LayoutJson, UnknownStruct) {
    json doc = v61_json();
    doc["struct"] = "task_struct";
    EXPECT_THAT(parse_error(doc), HasSubstr("unknown struct 'task_struct'"));
}

TEST(LayoutJson, UnknownField) {
    json doc = v61_json();
    field(doc, "emin")["name"] = "emax";
    EXPECT_THAT(parse_error(doc), HasSubstr("unknown field 'emax' in struct page_counter"));
}

TEST(LayoutJson, DuplicateField) {
    json doc = v61_json();
    doc["fields"].push_back({{"name", "usage"}, {"offset", 168}, {"size", 8}});
    EXPECT_THAT(parse_error(doc), HasSubstr("field 'usage' appears twice"));
}

TEST(LayoutJson, OverlappingFields) {
    json doc = v615_json();
    field(doc, "track_failcnt")["offset"] = 140; // inside min (136..143)
    EXPECT_THAT(parse_error(doc), HasSubstr("field track_failcnt overlaps field min"));

    json same_offset = v61_json();
    field(same_offset, "high")["offset"] = 152; // on top of max
    EXPECT_THAT(parse_error(same_offset),
                AllOf(HasSubstr("overlaps"), HasSubstr("high"), HasSubstr("max")));
}

TEST(LayoutJson, FieldPastTheEnd) {
    json doc = v61_json();
    field(doc, "parent")["offset"] = 192;
    EXPECT_THAT(parse_error(doc),
                HasSubstr("field parent (offset 192, size 8) runs past size 192"));
}

TEST(LayoutJson, FieldOffsetThatWrapsAroundIsOutOfRange) {
    // 4294967288 is -8 as uint32: offset + size would wrap to 0 in 32 bits.
    json doc = v61_json();
    field(doc, "parent")["offset"] = 4294967288u;
    EXPECT_THAT(parse_error(doc), HasSubstr("field 'parent': offset 4294967288 is out of range"));
    field(doc, "parent")["offset"] = -8;
    EXPECT_THAT(parse_error(doc), HasSubstr("field 'parent': offset -8 is negative"));
}

// Issue 9, failure 3: nlohmann converts numbers silently; each of these used to load as
// another layout (168, 0, 64, x) instead of being refused.
TEST(LayoutJson, NumbersThatDoNotFitAreRefusedNotTruncated) {
    const std::pair<const char*, const char*> cases[] = {
        {R"("offset": 4294967464)", "offset 4294967464 is out of range"},
        {R"("offset": 1180591620717411303424)", "offset 1.1805916207174113e+21 is not a whole"},
        {R"("offset": 64.9)", "offset 64.9 is not a whole number"},
        {R"("offset": "64")", "offset must be a number"},
    };
    for (const auto& [text, message] : cases) {
        std::string doc = v61_json().dump();
        const std::string from = R"("offset":0)";
        const auto at = doc.find(from);
        ASSERT_NE(at, std::string::npos);
        doc.replace(at, from.size(), std::string(text).erase(std::string(text).find(' '), 1));
        EXPECT_THAT(parse_error(doc), HasSubstr(message)) << text;
    }
    json doc = v61_json();
    doc["size"] = 4294967296ull + 192;
    EXPECT_THAT(parse_error(doc), HasSubstr("size 4294967488 is out of range"));
    doc = v61_json();
    doc["align"] = 4294967296ull + 64;
    EXPECT_THAT(parse_error(doc), HasSubstr("align 4294967360 is out of range"));
}

TEST(LayoutJson, ANumberPastADoubleIsALayoutError) {
    std::string doc = v61_json().dump();
    doc.replace(doc.find(R"("offset":0)"), 10, R"("offset":1e400)");
    EXPECT_THAT(parse_error(doc), HasSubstr("not valid JSON"));
}

TEST(LayoutJson, ControlCharactersInNamesAreRefused) {
    json doc = v61_json();
    doc["version"] = "mine\n\u001b[31m";
    EXPECT_THAT(parse_error(doc), HasSubstr("version \"mine\\n\\u001b[31m\" holds a control"));
    doc = v61_json();
    doc["version"] = std::string("a\0b", 3);
    EXPECT_THAT(parse_error(doc), HasSubstr("holds a control character"));
    doc = v61_json();
    field(doc, "parent")["name"] = "par\nent";
    EXPECT_THAT(parse_error(doc), HasSubstr("field name"));
}

TEST(LayoutJson, SizeBeyondSixteenBitOffsetsIsRejected) {
    // Probes and trace records carry 16-bit offsets.
    json doc = v61_json();
    doc["size"] = 65536 + 64;
    field(doc, "parent")["offset"] = 65536;
    EXPECT_THAT(parse_error(doc), HasSubstr("size 65600"));
}

TEST(LayoutJson, MisalignedField) {
    json doc = v61_json();
    field(doc, "parent")["offset"] = 164;
    EXPECT_THAT(parse_error(doc), HasSubstr("field parent at offset 164 is not 8-byte aligned"));
}

TEST(LayoutJson, WrongFieldSize) {
    json doc = v61_json();
    field(doc, "usage")["size"] = 4;
    EXPECT_THAT(parse_error(doc), HasSubstr("field usage has size 4, its type has size 8"));

    json stock = to_json(*find_builtin_layout("memcg_stock_pcp", "v5.10"), "s");
    field(stock, "nr_pages")["size"] = 8;
    EXPECT_THAT(parse_error(stock), HasSubstr("field nr_pages has size 8, its type has size 4"));
}

TEST(LayoutJson, BadAlign) {
    json doc = v61_json();
    doc["align"] = 48;
    EXPECT_THAT(parse_error(doc), HasSubstr("align 48 is not a power of two >= 8"));
    doc["align"] = 4;
    EXPECT_THAT(parse_error(doc), HasSubstr("align 4 is not a power of two >= 8"));
    doc["align"] = 0;
    EXPECT_THAT(parse_error(doc), HasSubstr("align 0 is not a power of two"));
}

TEST(LayoutJson, SizeNotMultipleOfAlign) {
    json doc = v61_json();
    doc["size"] = 200;
    EXPECT_THAT(parse_error(doc), HasSubstr("size 200 is not a multiple of align 64"));
    doc["size"] = 0;
    EXPECT_THAT(parse_error(doc), HasSubstr("size 0 is not a multiple of align 64"));
}

TEST(ResolveLayout, BuiltinByVersion) {
    const Layout l = resolve_layout("page_counter", "v6.1");
    EXPECT_EQ(l.version, "v6.1");
    expect_same_layout(l, *find_builtin_layout("page_counter", "v6.1"));
    EXPECT_EQ(resolve_layout("memcg_stock_pcp", "v5.10").size, 72u);
}

TEST(ResolveLayout, JsonPath) {
    TempDir dir;
    const auto path = dir.write("try.json", v61_json().dump());
    const Layout l = resolve_layout("page_counter", path.string());
    EXPECT_EQ(l.version, "my-try");
    expect_same_layout(l, *find_builtin_layout("page_counter", "v6.1"));
}

TEST(ResolveLayout, JsonPathOfAnotherStruct) {
    TempDir dir;
    const auto path = dir.write(
        "stock.json", to_json(*find_builtin_layout("memcg_stock_pcp", "v5.10"), "s").dump());
    try {
        resolve_layout("page_counter", path.string());
        FAIL() << "expected LayoutError";
    } catch (const LayoutError& e) {
        EXPECT_THAT(e.what(), HasSubstr("describes struct memcg_stock_pcp, not page_counter"));
    }
}

TEST(ResolveLayout, MissingJsonFile) {
    try {
        resolve_layout("page_counter", "/nonexistent/dir/layout.json");
        FAIL() << "expected LayoutError";
    } catch (const LayoutError& e) {
        EXPECT_THAT(e.what(), HasSubstr("cannot read layout file /nonexistent/dir/layout.json"));
    }
}

TEST(ResolveLayout, UnknownNameListsBuiltins) {
    try {
        resolve_layout("page_counter", "v5.10");
        FAIL() << "expected LayoutError";
    } catch (const LayoutError& e) {
        EXPECT_THAT(e.what(), AllOf(HasSubstr("unknown page_counter layout 'v5.10'"),
                                    HasSubstr("known: v6.0, v6.1, v6.15")));
    }
}

TEST(PageCounterLayoutCheck, LayoutLackingAFieldTheVariantNeeds) {
    ObjectRegistry registry;
    // v6.15 semantics touch local_watermark, which the v6.1 layout does not have.
    try {
        PageCounter pc(registry, "c", *find_builtin_layout("page_counter", "v6.1"), 0, nullptr,
                       {ProtectionPropagation::on_change, true});
        FAIL() << "expected LayoutError";
    } catch (const LayoutError& e) {
        EXPECT_THAT(e.what(), AllOf(HasSubstr("layout v6.1"), HasSubstr("'local_watermark'")));
    }
    // A user layout without max fails for every variant.
    json doc = v61_json();
    auto& fields = doc["fields"];
    fields.erase(std::remove_if(fields.begin(), fields.end(),
                                [](const json& f) { return f["name"] == "max"; }),
                 fields.end());
    const Layout no_max = parse_layout_json(doc.dump(), "no-max.json");
    try {
        PageCounter pc(registry, "c", no_max, 0, nullptr, {});
        FAIL() << "expected LayoutError";
    } catch (const LayoutError& e) {
        EXPECT_THAT(e.what(), AllOf(HasSubstr("layout my-try"), HasSubstr("'max'")));
    }
    // The same semantics accept the layouts that have every field.
    EXPECT_NO_THROW(PageCounter(registry, "ok", *find_builtin_layout("page_counter", "v6.15"), 0,
                                nullptr, {ProtectionPropagation::on_change, true}));
    EXPECT_NO_THROW(PageCounter(registry, "ok", *find_builtin_layout("page_counter", "v6.0"), 0,
                                nullptr, {ProtectionPropagation::always_exchange, false}));
}

TEST(PageCounterLayoutCheck, LayoutOfAnotherStructIsRejected) {
    ObjectRegistry registry;
    EXPECT_THROW(PageCounter(registry, "c", *find_builtin_layout("memcg_stock_pcp", "v5.10"), 0,
                             nullptr, {}),
                 LayoutError);
}

} // namespace
} // namespace hitmap::engine
