#pragma once
// The base that fuzz_btf_layout reads its input over as a module's split BTF, and that the split
// seed of fuzz_btf_layout_seeds is built over: a vmlinux in miniature, the same in both.
#include <bpf/btf.h>

namespace hitmap::fuzz {

// [1] long unsigned int, [2] struct list_head *, [3] struct list_head {next, prev}. The caller
// frees it (btf__free).
inline struct btf* new_split_base() {
    struct btf* b = btf__new_empty();
    btf__add_int(b, "long unsigned int", 8, 0);
    btf__add_ptr(b, 3);
    btf__add_struct(b, "list_head", 16);
    btf__add_field(b, "next", 2, 0, 0);
    btf__add_field(b, "prev", 2, 64, 0);
    return b;
}

} // namespace hitmap::fuzz
