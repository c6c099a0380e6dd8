// ProbedObject: placement of the object (start phase) and of each field (layout offset).
#include "engine/layout/builtin_layouts.hpp"
#include "engine/layout/layout_error.hpp"
#include "engine/probe/probed_object.hpp"

#include <cstring>
#include <gtest/gtest.h>

namespace hitmap::engine {
namespace {

const Layout& page_counter_layout(std::string_view v) {
    return *find_builtin_layout("page_counter", v);
}

std::uint64_t raw_u64(const ProbedObject& o, std::uint32_t offset) {
    std::uint64_t v;
    std::memcpy(&v, o.address() + offset, sizeof v);
    return v;
}

TEST(ProbedObject, StartPhasePlacesObjectInItsLine) {
    ObjectRegistry registry;
    for (std::uint32_t phase = 0; phase < 64; phase += 8) {
        ProbedObject o(registry, "p" + std::to_string(phase), page_counter_layout("v6.0"), phase);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(o.address()) % 64, phase);
        EXPECT_EQ(registry.at(o.id()).phase, phase);
    }
    // A phase of 64 or more is taken modulo the line.
    ProbedObject wrapped(registry, "wrapped", page_counter_layout("v6.0"), 64 + 24);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(wrapped.address()) % 64, 24u);
    EXPECT_EQ(registry.at(wrapped.id()).phase, 24u);
}

TEST(ProbedObject, PhaseMustBeAMultipleOf8) {
    ObjectRegistry registry;
    EXPECT_THROW(ProbedObject(registry, "odd", page_counter_layout("v6.0"), 4), LayoutError);
    EXPECT_THROW(ProbedObject(registry, "odd", page_counter_layout("v6.0"), 1), LayoutError);
}

TEST(ProbedObject, RegistryRecordsIdNameLayoutPhase) {
    ObjectRegistry registry;
    ProbedObject a(registry, "a", page_counter_layout("v6.0"), 0);
    ProbedObject b(registry, "b", page_counter_layout("v6.15"), 16);
    EXPECT_EQ(a.id(), 0);
    EXPECT_EQ(b.id(), 1);
    ASSERT_EQ(registry.objects().size(), 2u);
    EXPECT_EQ(registry.at(1).name, "b");
    EXPECT_EQ(registry.at(1).layout.version, "v6.15");
    EXPECT_EQ(registry.at(1).layout.size, 192u);
    EXPECT_EQ(registry.at(1).phase, 16u);
    EXPECT_EQ(b.layout().version, "v6.15");
}

TEST(ProbedObject, FieldsLiveAtTheirLayoutOffset) {
    for (const char* version : {"v6.0", "v6.1"}) {
        SCOPED_TRACE(version);
        ObjectRegistry registry;
        const Layout& layout = page_counter_layout(version);
        ProbedObject o(registry, "c", layout, 8);
        for (FieldId f = 0; f < layout.placement.size(); ++f) {
            if (!layout.has(f) || layout.at(f).size != 8)
                continue;
            const std::uint64_t value = 0x1100000000000000ull + f;
            o.store(f, value, Site::page_counter_set_limit);
            EXPECT_EQ(raw_u64(o, layout.at(f).offset), value) << layout.field_name(f);
            EXPECT_EQ(o.load(f, Site::page_counter_try_charge), value);
        }
        // high has the same field id in both layouts but lives at offset 24 (v6.0) vs 144 (v6.1).
        EXPECT_EQ(raw_u64(o, layout.at(pc::high).offset), 0x1100000000000000ull + pc::high);
    }
    EXPECT_EQ(page_counter_layout("v6.0").at(pc::high).offset, 24u);
    EXPECT_EQ(page_counter_layout("v6.1").at(pc::high).offset, 144u);
}

TEST(ProbedObject, RmwOpsAndSubWordFields) {
    ObjectRegistry registry;
    const Layout& layout = page_counter_layout("v6.15");
    ProbedObject o(registry, "c", layout, 0);
    EXPECT_EQ(o.add_return(pc::usage, 5, Site::page_counter_try_charge), 5);
    EXPECT_EQ(o.add_return(pc::usage, -7, Site::page_counter_cancel), -2);
    EXPECT_EQ(raw_u64(o, 0), static_cast<std::uint64_t>(-2));
    EXPECT_EQ(o.exchange(pc::min_usage, 16, Site::propagate_protected_usage), 0u);
    EXPECT_EQ(o.exchange(pc::min_usage, 3, Site::propagate_protected_usage), 16u);
    EXPECT_EQ(raw_u64(o, 72), 3u);

    // One-byte bools: a store touches its own byte only.
    o.poke(pc::min, ~0ull);
    o.store(pc::protection_support, 1, Site::page_counter_set_limit);
    o.store(pc::track_failcnt, 0x1ff, Site::page_counter_set_limit); // truncated to the byte
    const std::byte* base = o.address();
    EXPECT_EQ(std::to_integer<int>(base[128]), 1);
    EXPECT_EQ(std::to_integer<int>(base[129]), 0xff);
    for (int i = 130; i < 136; ++i)
        EXPECT_EQ(std::to_integer<int>(base[i]), 0) << i;
    EXPECT_EQ(o.peek(pc::track_failcnt), 0xffu);
    EXPECT_EQ(o.peek(pc::min), ~0ull);

    // A four-byte field (memcg_stock_pcp.nr_pages).
    ProbedObject s(registry, "s", *find_builtin_layout("memcg_stock_pcp", "v5.10"), 0);
    s.poke(stock::cached, ~0ull);
    s.store(stock::nr_pages, 0x1234567890ull, Site::refill_stock);
    EXPECT_EQ(s.peek(stock::nr_pages), 0x34567890u);
    std::uint32_t raw;
    std::memcpy(&raw, s.address() + 8, 4);
    EXPECT_EQ(raw, 0x34567890u);
    EXPECT_EQ(raw_u64(s, 16), 0u);
    EXPECT_EQ(s.peek(stock::cached), ~0ull);
}

TEST(ProbedObject, StorageStartsZeroed) {
    ObjectRegistry registry;
    const Layout& layout = page_counter_layout("v6.1");
    ProbedObject o(registry, "c", layout, 40);
    for (std::uint32_t off = 0; off < layout.size; off += 8)
        EXPECT_EQ(raw_u64(o, off), 0u) << off;
}

} // namespace
} // namespace hitmap::engine
