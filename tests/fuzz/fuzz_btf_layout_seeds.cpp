// Writes the seed corpus of fuzz_btf_layout into the directory given: small BTF blobs built
// with libbpf's writer, each covering what the layout reader distinguishes (a struct with
// CACHELINE_PADDING markers and cache line groups, bitfields, anonymous unions and structs,
// nested structs through typedefs, arrays of structs, a page_counter the engine maps, a
// module's split BTF over the fuzzer's base). Built at test time so that no binary blobs live
// in git.
#include "tests/fuzz/fuzz_btf_base.hpp"

#include <bpf/btf.h>
#include <cstdio>
#include <fstream>
#include <string>

namespace {

bool write(const std::string& dir, const char* name, struct btf* b) {
    std::uint32_t size = 0;
    const void* data = btf__raw_data(b, &size);
    std::ofstream out(dir + "/" + name, std::ios::binary);
    out.write(static_cast<const char*>(data), size);
    btf__free(b);
    return static_cast<bool>(out);
}

struct btf* markers_and_bitfields() {
    struct btf* b = btf__new_empty();
    const int lng = btf__add_int(b, "long unsigned int", 8, 0);
    const int u8 = btf__add_int(b, "unsigned char", 1, 0);
    const int chars = btf__add_array(b, lng, u8, 0);
    const int pad = btf__add_struct(b, "cacheline_padding", 0);
    btf__add_field(b, "x", chars, 0, 0);
    btf__add_struct(b, "page_counter", 192);
    const char* line0[] = {"usage", "failcnt"};
    for (int i = 0; i < 2; ++i)
        btf__add_field(b, line0[i], lng, i * 64, 0);
    btf__add_field(b, "_pad1_", pad, 64 * 8, 0);
    btf__add_field(b, "__cacheline_group_begin__hot", chars, 64 * 8, 0);
    const char* line1[] = {"emin",      "min_usage",      "children_min_usage",
                           "elow",      "low_usage",      "children_low_usage",
                           "watermark", "local_watermark"};
    for (int i = 0; i < 8; ++i)
        btf__add_field(b, line1[i], lng, (64 + 8 * i) * 8, 0);
    btf__add_field(b, "__cacheline_group_end__hot", chars, 128 * 8, 0);
    btf__add_field(b, "_pad2_", pad, 128 * 8, 0);
    btf__add_field(b, "protection_support", u8, 128 * 8, 1);
    btf__add_field(b, "track_failcnt", u8, 128 * 8 + 1, 1);
    const char* line2[] = {"min", "low", "high", "max", "parent"};
    for (int i = 0; i < 5; ++i)
        btf__add_field(b, line2[i], lng, (136 + 8 * i) * 8, 0);
    return b;
}

struct btf* anonymous_and_nested() {
    struct btf* b = btf__new_empty();
    const int i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
    const int lng = btf__add_int(b, "long int", 8, BTF_INT_SIGNED);
    const int atomic = btf__add_struct(b, "", 8);
    btf__add_field(b, "counter", lng, 0, 0);
    const int atomic_t = btf__add_typedef(b, "atomic_long_t", atomic);
    const int inner = btf__add_struct(b, "", 8);
    btf__add_field(b, "b", i32, 0, 0);
    btf__add_field(b, "c", i32, 32, 0);
    const int u = btf__add_union(b, "", 8);
    btf__add_field(b, "a", atomic_t, 0, 0);
    btf__add_field(b, "", inner, 0, 0);
    const int frn = btf__add_struct(b, "frn", 16);
    btf__add_field(b, "id", lng, 0, 0);
    btf__add_field(b, "n", i32, 64, 0);
    const int frns = btf__add_array(b, lng, frn, 2);
    const int ptr = btf__add_ptr(b, frn);
    btf__add_struct(b, "outer", 64);
    btf__add_field(b, "x", i32, 0, 0);
    btf__add_field(b, "", u, 64, 0);
    btf__add_field(b, "frn", frns, 128, 0);
    btf__add_field(b, "next", ptr, 384, 0);
    return b;
}

// struct mod_stats {struct list_head node; unsigned long hits; unsigned char flag;} over the
// base; only the split part is written. The base is freed after it (it outlives the split).
bool write_module_split(const std::string& dir) {
    struct btf* base = hitmap::fuzz::new_split_base();
    struct btf* b = btf__new_empty_split(base);
    const int u8 = btf__add_int(b, "unsigned char", 1, 0);
    btf__add_struct(b, "mod_stats", 32);
    btf__add_field(b, "node", 3, 0, 0);
    btf__add_field(b, "hits", 1, 128, 0);
    btf__add_field(b, "flag", u8, 192, 0);
    const bool ok = write(dir, "module_split.btf", b);
    btf__free(base);
    return ok;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    const bool ok = write(dir, "markers_and_bitfields.btf", markers_and_bitfields()) &&
                    write(dir, "anonymous_and_nested.btf", anonymous_and_nested()) &&
                    write_module_split(dir);
    if (!ok)
        std::fprintf(stderr, "%s: cannot write into %s\n", argv[0], argv[1]);
    return ok ? 0 : 1;
}
