#include "collector/btf/type_name.hpp"

#include <algorithm>
#include <bpf/btf.h>
#include <cctype>

namespace hitmap::btf {

namespace {

// libbpf follows type chains this deep (MAX_RESOLVE_DEPTH); deeper is a cycle in bad BTF.
constexpr unsigned kMaxChain = 32;

// Type names reach terminals and JSON: a byte that is not printable ASCII (only corrupted BTF
// has one) is shown as '?'.
std::string name_at(const struct btf* btf, std::uint32_t offset) {
    const char* name = btf__name_by_offset(btf, offset);
    std::string text = name ? name : "";
    for (char& c : text)
        if (c < 0x20 || c > 0x7e)
            c = '?';
    return text;
}

std::string spell(const struct btf* btf, std::uint32_t id, unsigned depth);

// A function type around `declarator`: "void (*)(struct work_struct *)" for a pointer.
std::string function(const struct btf* btf, const btf_type* proto, const std::string& declarator,
                     unsigned depth) {
    std::string text = spell(btf, proto->type, depth + 1) + " " + declarator + "(";
    const btf_param* params = btf_params(proto);
    for (std::uint16_t i = 0; i < btf_vlen(proto); ++i) {
        if (i)
            text += ", ";
        text += params[i].type == 0 ? "..." : spell(btf, params[i].type, depth + 1);
    }
    return text + ")";
}

std::string named(const char* keyword, const std::string& name) {
    return std::string(keyword) + (name.empty() ? " {...}" : " " + name);
}

std::string spell(const struct btf* btf, std::uint32_t id, unsigned depth) {
    if (depth > kMaxChain)
        return "...";
    if (id == 0)
        return "void";
    const btf_type* t = btf__type_by_id(btf, id);
    if (!t)
        return "?";
    const std::string name = name_at(btf, t->name_off);
    switch (btf_kind(t)) {
    case BTF_KIND_INT:
    case BTF_KIND_FLOAT:
    case BTF_KIND_TYPEDEF:
        return name;
    case BTF_KIND_STRUCT:
        return named("struct", name);
    case BTF_KIND_UNION:
        return named("union", name);
    case BTF_KIND_ENUM:
    case BTF_KIND_ENUM64:
        return named("enum", name);
    case BTF_KIND_FWD:
        return named(btf_kflag(t) ? "union" : "struct", name);
    case BTF_KIND_CONST:
        return "const " + spell(btf, t->type, depth + 1);
    case BTF_KIND_VOLATILE:
        return "volatile " + spell(btf, t->type, depth + 1);
    case BTF_KIND_RESTRICT:
        return spell(btf, t->type, depth + 1) + " restrict";
    case BTF_KIND_TYPE_TAG:
        return spell(btf, t->type, depth + 1);
    case BTF_KIND_PTR: {
        const btf_type* target = btf__type_by_id(btf, t->type);
        if (target && btf_is_func_proto(target))
            return function(btf, target, "(*)", depth + 1);
        return spell(btf, t->type, depth + 1) + " *";
    }
    case BTF_KIND_ARRAY: {
        // int x[2][3] is an array of 2 arrays of 3: the outer count is written first.
        std::string dims;
        while (t && btf_is_array(t) && depth <= kMaxChain) {
            dims += "[" + std::to_string(btf_array(t)->nelems) + "]";
            id = btf_array(t)->type;
            t = btf__type_by_id(btf, id);
            ++depth;
        }
        return spell(btf, id, depth + 1) + dims;
    }
    case BTF_KIND_FUNC_PROTO:
        return function(btf, t, "", depth + 1);
    default:
        return "?";
    }
}

} // namespace

std::string type_name(const struct btf* btf, std::uint32_t type_id) {
    return spell(btf, type_id, 0);
}

bool is_c_identifier(std::string_view name) {
    const auto word = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    return !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
           std::all_of(name.begin(), name.end(), word);
}

} // namespace hitmap::btf
