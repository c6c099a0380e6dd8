#include "collector/btf/btf_file.hpp"

#include "collector/btf/errors.hpp"
#include "collector/btf/type_name.hpp"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <fmt/format.h>
#include <limits>
#include <sys/utsname.h>
#include <xxhash.h>

namespace hitmap::btf {

namespace {

// libbpf says why it refused in a message it prints (a warning, or for a truncated header only
// a debug message). Instead of going to stderr, the last message of each level is kept, per
// thread, for the one-line error.
thread_local std::string last_warning;
thread_local std::string last_debug;

int keep_message(enum libbpf_print_level level, const char* format, va_list args) {
    std::string& kept = level == LIBBPF_WARN ? last_warning : last_debug;
    char text[512];
    const int n = std::vsnprintf(text, sizeof text, format, args);
    kept.assign(text, n < 0 ? 0 : std::min<std::size_t>(n, sizeof text - 1));
    while (!kept.empty() && (kept.back() == '\n' || kept.back() == ' '))
        kept.pop_back();
    return n;
}

// libbpf reads type records in place as 4-byte words but accepts a header whose length puts
// them off a 4-byte boundary; only corrupted BTF has one, so it is refused.
struct btf* check_alignment(struct btf* b, const std::string& source) {
    std::uint32_t size = 0;
    const auto* header = static_cast<const btf_header*>(btf__raw_data(b, &size));
    if (header && size >= sizeof *header && (header->hdr_len + header->type_off) % 4 == 0)
        return b;
    btf__free(b);
    throw BtfReadError(
        fmt::format("cannot read BTF from {}: type section not aligned to 4 bytes", source));
}

// Calls `load` (a libbpf constructor returning null and setting errno on failure) and throws
// BtfReadError naming `source` when it fails.
template <typename Load> struct btf* load_or_throw(const std::string& source, Load load) {
    static const bool installed = (libbpf_set_print(keep_message), true);
    (void)installed;
    last_warning.clear();
    last_debug.clear();
    errno = 0;
    struct btf* b = load();
    if (b)
        return check_alignment(b, source);
    // libbpf's own words name the problem ("failed to find '.BTF' ELF section"), where the
    // errno it returns would not (ENOENT for that one).
    std::string said = last_warning.empty() ? last_debug : last_warning;
    if (said.starts_with("libbpf: "))
        said.erase(0, 8);
    if (said.empty()) {
        char reason[256];
        libbpf_strerror(errno ? errno : EINVAL, reason, sizeof reason);
        said = reason;
    }
    throw BtfReadError(fmt::format("cannot read BTF from {}: {}", source, said));
}

std::string content_hash(const struct btf* b) {
    std::uint32_t size = 0;
    const void* data = btf__raw_data(b, &size);
    if (!data)
        return "unknown";
    XXH128_canonical_t canonical;
    XXH128_canonicalFromHash(&canonical, XXH3_128bits(data, size));
    std::string hex;
    for (const unsigned char byte : canonical.digest)
        hex += fmt::format("{:02x}", byte);
    return hex;
}

} // namespace

void BtfFile::Free::operator()(struct btf* b) const {
    btf__free(b);
}

BtfFile::BtfFile(struct btf* b, std::string version, const std::string& source)
    : btf_(b)
    , version_(std::move(version))
    , origin_(fmt::format("BTF {}, xxh3-128 {}", source, content_hash(b))) {}

BtfFile BtfFile::running_kernel() {
    std::error_code ec;
    if (!std::filesystem::exists(kKernelBtfPath, ec))
        throw BtfReadError(fmt::format("no {}: the running kernel exports no BTF (built without "
                                       "CONFIG_DEBUG_INFO_BTF); give a BTF or ELF file instead",
                                       kKernelBtfPath));
    utsname uts{};
    const std::string release = uname(&uts) == 0 ? uts.release : "unknown";
    struct btf* b =
        load_or_throw(kKernelBtfPath, [] { return btf__parse(kKernelBtfPath, nullptr); });
    return BtfFile(b, "btf:" + release, fmt::format("{} (kernel {})", kKernelBtfPath, release));
}

BtfFile BtfFile::open(const std::filesystem::path& path) {
    const std::string source = path.string();
    struct btf* b = load_or_throw(source, [&] { return btf__parse(source.c_str(), nullptr); });
    return BtfFile(b, "btf:" + path.filename().string(), source);
}

BtfFile BtfFile::from_bytes(std::span<const std::byte> bytes, const std::string& name) {
    if (bytes.size() > std::numeric_limits<std::uint32_t>::max())
        throw BtfReadError(fmt::format("cannot read BTF from {}: larger than 4 GiB", name));
    const std::byte none{};
    const void* data = bytes.empty() ? &none : bytes.data();
    struct btf* b = load_or_throw(
        name, [&] { return btf__new(data, static_cast<std::uint32_t>(bytes.size())); });
    return BtfFile(b, "btf:" + name, name);
}

std::vector<std::string> BtfFile::composite_names() const {
    std::vector<std::string> names;
    for (std::uint32_t id = 1; id < btf__type_cnt(get()); ++id) {
        const btf_type* t = btf__type_by_id(get(), id);
        if (!t || !btf_is_composite(t))
            continue;
        const char* name = btf__name_by_offset(get(), t->name_off);
        if (name && is_c_identifier(name))
            names.emplace_back(name);
    }
    return names;
}

} // namespace hitmap::btf
