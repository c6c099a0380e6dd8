#include "collector/btf/struct_reader.hpp"

#include "collector/btf/errors.hpp"
#include "collector/btf/type_name.hpp"

#include <algorithm>
#include <bpf/btf.h>
#include <fmt/format.h>
#include <map>

namespace hitmap::btf {

namespace {

// libbpf resolves type chains this deep (MAX_RESOLVE_DEPTH); no kernel struct nests deeper.
constexpr unsigned kMaxNesting = 32;
// A bound on the expansion of nested structs: the kernel's largest (task_struct) has a few
// thousand members; a hand-made BTF could nest its way to billions.
constexpr std::size_t kMaxMembers = 1 << 16;
// The largest alignment inferred: __aligned(PAGE_SIZE) is the largest the kernel uses.
constexpr std::uint32_t kMaxAlign = 4096;

std::uint64_t align_up(std::uint64_t x, std::uint32_t align) {
    return (x + align - 1) / align * align;
}

// The smallest power of two above `from` (at most kMaxAlign) that places `end` at `target`:
// the alignment that explains a gap natural alignment does not. nullopt if none does.
std::optional<std::uint32_t> explaining_align(std::uint64_t end, std::uint64_t target,
                                              std::uint32_t from) {
    for (std::uint32_t a = from * 2; a <= kMaxAlign; a *= 2)
        if (align_up(end, a) == target)
            return a;
    return std::nullopt;
}

// An anonymous struct or union adds nothing to its members' paths, as in C; any other unnamed
// member (a padding bitfield, "int :3") reads "<unnamed>".
std::string member_path(const std::string& prefix, const std::string& name, bool composite) {
    if (name.empty() && composite)
        return prefix;
    const std::string own = name.empty() ? "<unnamed>" : name;
    return prefix.empty() ? own : prefix + "." + own;
}

// What one composite's offsets say about alignment.
struct CompositeAlign {
    std::uint32_t align = 1;
    std::vector<std::optional<std::uint32_t>> forced; // by member index
};

class Reader {
public:
    Reader(const BtfFile& file)
        : file_(file)
        , btf_(file.get()) {}

    StructLayout read(std::string_view name);

private:
    const btf_type* type(std::uint32_t id) const {
        const btf_type* t = btf__type_by_id(btf_, id);
        if (!t)
            throw BtfFormatError(fmt::format("{}: type id {} does not exist", file_.version(), id));
        return t;
    }
    std::string name_of(std::uint32_t offset) const {
        const char* name = btf__name_by_offset(btf_, offset);
        return name ? name : "";
    }
    // Past typedefs, const, volatile, restrict and type tags.
    std::uint32_t skip_modifiers(std::uint32_t id) const;
    std::uint32_t natural_align(std::uint32_t id, unsigned depth);
    const CompositeAlign& composite_align(std::uint32_t id, unsigned depth);
    void expand(std::uint32_t id, const std::string& prefix, std::uint64_t base_bits,
                unsigned depth, std::vector<Member>& out);
    [[noreturn]] void nested_too_deep(std::uint32_t id) const {
        throw BtfFormatError(fmt::format("{}: type {} nests deeper than {} levels (a cycle?)",
                                         file_.version(), id, kMaxNesting));
    }

    const BtfFile& file_;
    const struct btf* btf_;
    std::map<std::uint32_t, CompositeAlign> aligns_;
};

std::uint32_t Reader::skip_modifiers(std::uint32_t id) const {
    for (unsigned i = 0; i <= kMaxNesting; ++i) {
        if (id == 0)
            return id;
        const btf_type* t = type(id);
        if (!btf_is_mod(t) && !btf_is_typedef(t))
            return id;
        id = t->type;
    }
    nested_too_deep(id);
}

std::uint32_t Reader::natural_align(std::uint32_t id, unsigned depth) {
    if (depth > kMaxNesting)
        nested_too_deep(id);
    id = skip_modifiers(id);
    if (id == 0)
        return 1;
    const btf_type* t = type(id);
    if (btf_is_composite(t))
        return composite_align(id, depth + 1).align;
    if (btf_is_array(t))
        return natural_align(btf_array(t)->type, depth + 1);
    if (btf_is_int(t) || btf_is_any_enum(t) || btf_is_float(t) || btf_is_ptr(t))
        return static_cast<std::uint32_t>(std::max(1, btf__align_of(btf_, id)));
    return 1;
}

// As pahole infers it: a member placed beyond where its type's alignment would put it was
// aligned by the smallest power of two that explains the gap, and so was a struct whose size
// its members' alignment does not explain. A member off its natural alignment means packed.
const CompositeAlign& Reader::composite_align(std::uint32_t id, unsigned depth) {
    if (const auto it = aligns_.find(id); it != aligns_.end())
        return it->second;
    if (depth > kMaxNesting)
        nested_too_deep(id);
    const btf_type* t = type(id);
    CompositeAlign info;
    info.forced.resize(btf_vlen(t));
    std::uint64_t end = 0; // bytes
    bool packed = false;
    for (std::uint16_t i = 0; i < btf_vlen(t); ++i) {
        const std::uint32_t bit_offset = btf_member_bit_offset(t, i);
        const std::int64_t size = btf__resolve_size(btf_, btf_members(t)[i].type);
        if (size < 0)
            continue; // expand() reports it
        const std::uint32_t bits = btf_member_bitfield_size(t, i);
        if (bits || bit_offset % 8) { // bitfields say nothing about alignment
            end = std::max<std::uint64_t>(end, (std::uint64_t{bit_offset} + bits + 7) / 8);
            continue;
        }
        const std::uint64_t offset = bit_offset / 8;
        const std::uint32_t natural = natural_align(btf_members(t)[i].type, depth + 1);
        if (offset % natural) {
            packed = true;
            continue;
        }
        std::uint32_t align = natural;
        if (!btf_is_union(t) && offset > align_up(end, natural))
            if (const auto forced = explaining_align(end, offset, natural)) {
                info.forced[i] = forced;
                align = *forced;
            }
        info.align = std::max(info.align, align);
        end = std::max<std::uint64_t>(end, offset + size);
    }
    if (packed)
        info.align = 1;
    else if (align_up(end, info.align) != t->size)
        info.align = explaining_align(end, t->size, info.align).value_or(info.align);
    return aligns_.emplace(id, std::move(info)).first->second;
}

void Reader::expand(std::uint32_t id, const std::string& prefix, std::uint64_t base_bits,
                    unsigned depth, std::vector<Member>& out) {
    if (depth > kMaxNesting)
        nested_too_deep(id);
    const btf_type* t = type(id);
    const CompositeAlign& aligns = composite_align(id, depth);
    for (std::uint16_t i = 0; i < btf_vlen(t); ++i) {
        const btf_member& raw = btf_members(t)[i];
        const std::string name = name_of(raw.name_off);
        if (!name.empty() && !is_c_identifier(name))
            throw BtfFormatError(fmt::format("{}: member {} of {} has a name that is not a C "
                                             "identifier",
                                             file_.version(), i,
                                             prefix.empty() ? "the struct" : prefix));
        const std::uint32_t resolved = skip_modifiers(raw.type);
        const btf_type* rt = resolved ? type(resolved) : nullptr;
        const std::int64_t size = btf__resolve_size(btf_, raw.type);
        Member m;
        m.path = member_path(prefix, name, rt && btf_is_composite(rt));
        if (size < 0 || size > UINT32_MAX)
            throw BtfFormatError(fmt::format("{}: member {} of type {} has no size",
                                             file_.version(), m.path, raw.type));
        std::uint64_t bit_offset = btf_member_bit_offset(t, i);
        std::uint32_t bits = btf_member_bitfield_size(t, i);
        if (!bits && !btf_kflag(t) && rt && btf_is_int(rt) && btf_int_bits(rt) != size * 8) {
            bits = btf_int_bits(rt); // the older encoding: width and offset in the INT
            bit_offset += btf_int_offset(rt);
        }
        m.type = type_name(btf_, raw.type);
        m.depth = depth;
        m.bit_offset = base_bits + bit_offset;
        m.size = static_cast<std::uint32_t>(size);
        m.bit_size = bits ? bits : m.size * 8;
        m.forced_align = aligns.forced[i];
        if (bit_offset + m.bit_size > std::uint64_t{t->size} * 8)
            throw BtfFormatError(
                fmt::format("{}: member {} (bits {}..{}) runs past the end of its {}-byte {}",
                            file_.version(), m.path, bit_offset, bit_offset + m.bit_size, t->size,
                            btf_is_union(t) ? "union" : "struct"));
        if (out.size() >= kMaxMembers)
            throw BtfFormatError(fmt::format("{}: more than {} members once nested structs are "
                                             "expanded",
                                             file_.version(), kMaxMembers));
        // The element type of an array, through every dimension: a composite array shows the
        // members of its first element.
        std::uint32_t element = resolved;
        std::string element_path = m.path;
        std::uint64_t elements = 1;
        for (unsigned d = 0; element && btf_is_array(type(element)); ++d) {
            if (d > kMaxNesting)
                nested_too_deep(element);
            elements =
                std::min<std::uint64_t>(elements * btf_array(type(element))->nelems, UINT32_MAX);
            element = skip_modifiers(btf_array(type(element))->type);
            element_path += "[0]";
        }
        m.elements = static_cast<std::uint32_t>(std::max<std::uint64_t>(elements, 1));
        const btf_type* et = element ? type(element) : nullptr;
        if (bits)
            m.kind = MemberKind::bitfield;
        else if (m.size == 0)
            m.kind = MemberKind::marker;
        else if (et && btf_is_composite(et))
            m.kind = name.empty() ? MemberKind::anonymous : MemberKind::composite;
        out.push_back(m);
        if (m.kind == MemberKind::composite || m.kind == MemberKind::anonymous) {
            out.back().is_union = btf_is_union(et);
            expand(element, element_path, m.bit_offset, depth + 1, out);
        }
    }
}

StructLayout Reader::read(std::string_view name) {
    const std::string wanted(name);
    if (!is_c_identifier(wanted))
        throw StructNotFound(
            fmt::format("no struct or union is named '{}': not a C identifier", wanted));
    std::int32_t id = btf__find_by_name_kind(btf_, wanted.c_str(), BTF_KIND_STRUCT);
    if (id <= 0)
        id = btf__find_by_name_kind(btf_, wanted.c_str(), BTF_KIND_UNION);
    if (id <= 0) {
        const std::int32_t alias = btf__find_by_name_kind(btf_, wanted.c_str(), BTF_KIND_TYPEDEF);
        if (alias > 0 && btf_is_composite(type(skip_modifiers(alias))))
            id = static_cast<std::int32_t>(skip_modifiers(alias));
    }
    if (id <= 0)
        throw StructNotFound(
            fmt::format("no struct or union named '{}' in {}", name, file_.version()));
    const btf_type* t = type(id);
    StructLayout layout;
    layout.name = wanted;
    layout.is_union = btf_is_union(t);
    layout.size = t->size;
    layout.align = composite_align(id, 0).align;
    layout.version = file_.version();
    layout.origin = file_.origin();
    expand(id, "", 0, 0, layout.members);
    return layout;
}

} // namespace

StructLayout read_struct_layout(const BtfFile& file, std::string_view name) {
    return Reader(file).read(name);
}

} // namespace hitmap::btf
