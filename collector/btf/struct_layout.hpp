#pragma once
// A struct as BTF lays it out, flattened: every member of the struct and of the structs and
// unions nested in it, in declaration order, named by its dotted path ("memory.usage" inside
// mem_cgroup). Anonymous unions and structs add no path component, as in C. Offsets count from
// the start of the outermost struct, and cache lines from offset 0: where the struct itself
// starts within a line is a property of its allocation, which BTF does not know.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::btf {

// The line size boundaries are drawn at: L1_CACHE_BYTES of x86-64 and arm64.
inline constexpr std::uint32_t kCacheLineSize = 64;

enum class MemberKind {
    field,     // bytes of its own: a scalar, pointer, array of scalars or enum
    bitfield,  // narrower than its type: bit_offset and bit_size are exact
    marker,    // zero bytes: CACHELINE_PADDING(), __cacheline_group_begin/end, x[0], x[]
    composite, // a named struct or union member (or an array of them); its members follow
    anonymous, // an unnamed struct or union: its members keep the parent's path
};

struct Member {
    // "memory.usage", "cgwb_frn[0].bdi_id"; an anonymous one: its parent's
    std::string path;
    // The C type: "atomic_long_t", "struct page_counter *", "long[9]"
    std::string type;
    MemberKind kind = MemberKind::field;
    bool is_union = false;        // composite/anonymous: a union, whose members overlap
    unsigned depth = 0;           // 0 for the struct's own members
    std::uint64_t bit_offset = 0; // from the start of the outermost struct
    std::uint32_t bit_size = 0;   // a bitfield's width; else 8 * size
    std::uint32_t size = 0;       // bytes of the member's type (a bitfield's storage type)
    std::uint32_t elements = 1;   // an array's element count; a composite array shows element 0
    // An alignment the member's offset shows beyond its type's own (__aligned__, or the
    // ____cacheline_aligned of a CACHELINE_PADDING marker), inferred from the offsets as
    // pahole does: BTF records no alignment.
    std::optional<std::uint32_t> forced_align;

    std::uint64_t offset() const { return bit_offset / 8; }
    std::uint64_t end_bit() const { return bit_offset + bit_size; }
    // One past its last byte: a bitfield ends with the byte its last bit is in.
    std::uint64_t end_byte() const { return (end_bit() + 7) / 8; }
    // Bytes of its own, which a field name can stand for: a field or a bitfield (a composite's
    // bytes are its members', a marker has none, nor has a zero-width bitfield, "int :0").
    bool holds_bytes() const {
        return (kind == MemberKind::field || kind == MemberKind::bitfield) && bit_size > 0;
    }
};

// Unused space inside a struct: between two members of one struct level, or after its last
// member (a nested struct's tail padding; the outermost struct's tail is not a hole).
struct Hole {
    std::size_t before = 0; // index of the member it precedes; members.size() at the end
    unsigned depth = 0;     // the depth of the members around it
    std::uint64_t bit_offset = 0;
    std::uint64_t bits = 0;
};

struct StructLayout {
    // "page_counter"
    std::string name;
    bool is_union = false;   // `layout show` also reads unions
    std::uint32_t size = 0;  // sizeof
    std::uint32_t align = 1; // inferred from the offsets, as for Member::forced_align
    std::string version;     // "btf:6.18.0" for the running kernel, "btf:FILE" for a file
    std::string origin;      // the BTF source and its content hash
    std::vector<Member> members;

    // The member at a dotted path (anonymous entries are skipped); null if there is none.
    const Member* find(std::string_view path) const;
    // Bytes after the last top-level member: what the struct's alignment adds.
    std::uint64_t tail_padding() const;
};

// Every hole of every struct level, in member order. Unions have none: their members overlap.
std::vector<Hole> find_holes(const StructLayout& layout);

} // namespace hitmap::btf
