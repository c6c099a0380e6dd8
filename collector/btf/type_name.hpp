#pragma once
// The C spelling of a BTF type, as pahole prints it: "long unsigned int", "atomic_long_t",
// "struct page_counter *", "long[9]", "void (*)(struct work_struct *)". An anonymous struct or
// union reads "struct {...}"; type tags (__rcu, __user) are annotations and left out.
#include <cstdint>
#include <string>
#include <string_view>

struct btf;

namespace hitmap::btf {

std::string type_name(const struct btf* btf, std::uint32_t type_id);

// A name the kernel's BTF verifier accepts for a struct or member (btf_name_valid_identifier()):
// letters, digits and '_', not starting with a digit. Only corrupted BTF has others.
bool is_c_identifier(std::string_view name);

} // namespace hitmap::btf
