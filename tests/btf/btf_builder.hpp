#pragma once
// Hand-built BTF for the tests: libbpf's writer (btf__new_empty, btf__add_*) for well-formed
// types, standalone or split over a base as a module's is, its raw bytes for
// BtfFile::from_bytes or a file, and a raw-bytes writer for what libbpf's writer refuses to
// produce (the pre-kind_flag bitfield encoding, broken sections).
#include "collector/btf/btf_file.hpp"

#include <bpf/btf.h>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace hitmap::btf::testing {

class BtfBuilder {
public:
    BtfBuilder()
        : btf_(btf__new_empty()) {}
    // Split BTF over `base`, as a module's over vmlinux: its ids and strings continue the
    // base's, whose types its members may name. `base` must outlive the builder; adding a name
    // indexes the base's strings (libbpf makes the base writable for that).
    explicit BtfBuilder(struct btf* base)
        : btf_(btf__new_empty_split(base)) {}

    int add_int(const char* name, std::size_t bytes, bool is_signed = false) {
        return check(btf__add_int(get(), name, bytes, is_signed ? BTF_INT_SIGNED : 0));
    }
    int add_ptr(int target) { return check(btf__add_ptr(get(), target)); }
    int add_array(int element, std::uint32_t count) {
        return check(btf__add_array(get(), long_index(), element, count));
    }
    int add_typedef(const char* name, int target) {
        return check(btf__add_typedef(get(), name, target));
    }
    int add_const(int target) { return check(btf__add_const(get(), target)); }
    // The members that follow (add_field) belong to the last struct or union added.
    int add_struct(const char* name, std::uint32_t size) {
        return check(btf__add_struct(get(), name, size));
    }
    int add_union(const char* name, std::uint32_t size) {
        return check(btf__add_union(get(), name, size));
    }
    void add_field(const char* name, int type, std::uint32_t bit_offset, std::uint32_t bits = 0) {
        check(btf__add_field(get(), name, type, bit_offset, bits));
    }

    std::vector<std::byte> bytes() const {
        std::uint32_t size = 0;
        const void* data = btf__raw_data(btf_.get(), &size);
        const auto* first = static_cast<const std::byte*>(data);
        return {first, first + size};
    }
    BtfFile file(const std::string& name = "test.btf") const {
        const auto b = bytes();
        return BtfFile::from_bytes(b, name);
    }
    struct btf* get() const {
        return btf_.get();
    }

private:
    struct Free {
        void operator()(struct btf* b) const { btf__free(b); }
    };
    int long_index() {
        if (!index_)
            index_ = add_int("long unsigned int", 8);
        return index_;
    }
    static int check(int id) {
        EXPECT_GE(id, 0) << "libbpf refused to build the test BTF";
        return id;
    }

    std::unique_ptr<struct btf, Free> btf_;
    int index_ = 0;
};

// A vmlinux in miniature and a module's split BTF over it, whose struct names base types:
//   base:   [1] long unsigned int, [2] struct list_head *, [3] struct list_head {next, prev}
//   module: [4] unsigned char, [5] struct mod_stats {struct list_head node; long unsigned int
//           hits; unsigned char flag;} (32 bytes, 7 of tail padding)
struct ModuleBtf {
    static constexpr int kLong = 1;
    static constexpr int kListHead = 3;

    ModuleBtf()
        : base(vmlinux())
        , module(base.get()) {
        const int u8 = module.add_int("unsigned char", 1);
        module.add_struct("mod_stats", 32);
        module.add_field("node", kListHead, 0);
        module.add_field("hits", kLong, 128);
        module.add_field("flag", u8, 192);
    }

    static BtfBuilder vmlinux() {
        BtfBuilder b;
        EXPECT_EQ(b.add_int("long unsigned int", 8), kLong);
        const int ptr = b.add_ptr(kListHead);
        EXPECT_EQ(b.add_struct("list_head", 16), kListHead);
        b.add_field("next", ptr, 0);
        b.add_field("prev", ptr, 64);
        return b;
    }

    BtfBuilder base;
    BtfBuilder module;
};

inline void write_bytes(const std::filesystem::path& path, const std::vector<std::byte>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<long>(bytes.size()));
}

// BTF written byte by byte (little-endian, version 1): a header, the type records given as
// 32-bit words, and a string section.
inline std::vector<std::byte> raw_btf(const std::vector<std::uint32_t>& type_words,
                                      const std::string& strings) {
    const std::uint32_t type_len = static_cast<std::uint32_t>(type_words.size() * 4);
    const std::uint32_t header[] = {
        0x0001eb9f /* magic, version 1, flags 0 */, 24, 0, type_len, type_len,
        static_cast<std::uint32_t>(strings.size())};
    std::vector<std::byte> out(sizeof header + type_len + strings.size());
    std::memcpy(out.data(), header, sizeof header);
    std::memcpy(out.data() + sizeof header, type_words.data(), type_len);
    std::memcpy(out.data() + sizeof header + type_len, strings.data(), strings.size());
    return out;
}

// The first word of a type record: kind, member count and kind_flag.
constexpr std::uint32_t type_info(std::uint32_t kind, std::uint32_t vlen, bool kflag = false) {
    return (kflag ? 1u << 31 : 0u) | kind << 24 | vlen;
}

} // namespace hitmap::btf::testing
