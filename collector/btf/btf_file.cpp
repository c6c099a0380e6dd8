#include "collector/btf/btf_file.hpp"

#include "collector/btf/errors.hpp"
#include "collector/btf/type_name.hpp"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <fstream>
#include <gelf.h>
#include <iterator>
#include <limits>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>
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

// The header fields read here, in host byte order: BTF is in its target's, which libbpf and the
// kernel tell by the magic's.
struct Header {
    std::uint32_t hdr_len = 0, str_off = 0, str_len = 0;
};

std::optional<Header> read_header(std::span<const std::byte> data) {
    btf_header h;
    if (data.size() < sizeof h)
        return std::nullopt;
    std::memcpy(&h, data.data(), sizeof h);
    const bool swapped = h.magic == __builtin_bswap16(BTF_MAGIC);
    if (h.magic != BTF_MAGIC && !swapped)
        return std::nullopt;
    const auto host = [&](std::uint32_t v) { return swapped ? __builtin_bswap32(v) : v; };
    return Header{host(h.hdr_len), host(h.str_off), host(h.str_len)};
}

// Whether BTF is split, its type ids and string offsets continuing a base's. Standalone BTF's
// string section starts with the empty string (name offset 0 means anonymous); split BTF's
// own strings start at its base's length, so its section starts with its first own string, or
// is empty. libbpf (btf.c) and the kernel (kernel/bpf/btf.c, 5.11+) both check this in
// btf_parse_str_sec: a first string that is not empty only over a base, an empty section only
// over a base. nullopt: not BTF, or too short to tell (libbpf says why).
std::optional<bool> continues_a_base(std::span<const std::byte> data) {
    const std::optional<Header> h = read_header(data);
    if (!h)
        return std::nullopt;
    if (h->str_len == 0)
        return true;
    const std::uint64_t first = std::uint64_t{h->hdr_len} + h->str_off;
    if (first >= data.size())
        return std::nullopt;
    return data[first] != std::byte{0};
}

// A file descriptor closed at the end of the scope.
struct ClosedAtExit {
    int fd;
    ~ClosedAtExit() {
        if (fd >= 0)
            ::close(fd);
    }
};

// continues_a_base() of the .BTF section of an ELF file (a module's .ko, vmlinux), found
// through libelf as libbpf finds it. nullopt when there is none (libbpf says so).
std::optional<bool> elf_continues_a_base(int fd) {
    if (elf_version(EV_CURRENT) == EV_NONE)
        return std::nullopt;
    const std::unique_ptr<Elf, int (*)(Elf*)> elf(elf_begin(fd, ELF_C_READ_MMAP, nullptr), elf_end);
    std::size_t names = 0;
    if (!elf || elf_getshdrstrndx(elf.get(), &names) != 0)
        return std::nullopt;
    for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf.get(), scn)) != nullptr;) {
        GElf_Shdr header;
        const char* name =
            gelf_getshdr(scn, &header) ? elf_strptr(elf.get(), names, header.sh_name) : nullptr;
        if (!name || std::strcmp(name, ".BTF") != 0)
            continue;
        const Elf_Data* data = elf_rawdata(scn, nullptr);
        if (!data || !data->d_buf)
            return std::nullopt;
        return continues_a_base({static_cast<const std::byte*>(data->d_buf), data->d_size});
    }
    return std::nullopt;
}

// continues_a_base() of a file: an ELF file's .BTF, or raw BTF (a few MB at most: read whole).
std::optional<bool> file_continues_a_base(const std::filesystem::path& path) {
    const ClosedAtExit file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (file.fd < 0)
        return std::nullopt;
    char magic[SELFMAG] = {};
    if (::pread(file.fd, magic, SELFMAG, 0) == SELFMAG && std::memcmp(magic, ELFMAG, SELFMAG) == 0)
        return elf_continues_a_base(file.fd);
    std::ifstream in(path, std::ios::binary);
    std::vector<char> raw(sizeof(btf_header));
    if (!in.read(raw.data(), static_cast<std::streamsize>(raw.size())) ||
        !read_header(std::as_bytes(std::span(raw))))
        return std::nullopt;
    raw.insert(raw.end(), std::istreambuf_iterator<char>(in), {});
    return continues_a_base(std::as_bytes(std::span(raw)));
}

std::uint32_t checked_size(std::span<const std::byte> bytes, const std::string& name) {
    if (bytes.size() > std::numeric_limits<std::uint32_t>::max())
        throw BtfReadError(fmt::format("cannot read BTF from {}: larger than 4 GiB", name));
    return static_cast<std::uint32_t>(bytes.size());
}

// libbpf reads no bytes from an empty span, but wants a pointer.
const void* data_of(std::span<const std::byte> bytes) {
    static const std::byte none{};
    return bytes.empty() ? &none : bytes.data();
}

// Split BTF names its base's types by id and strings by offset: over another base than the one
// it was built against (another vmlinux build) they name other types and strings, or none.
// libbpf 1.1 does not check (it reads whatever they name); this refuses the pair when a type
// of the split part refers past the last type or has a name that starts no string, as a base
// with another type count or string section leaves them. (libbpf and pahole write each string
// once, whole: every name offset starts a string.)
void check_fits_base(const struct btf* split, const BtfFile& base, const std::string& source) {
    const std::uint32_t count = btf__type_cnt(split);
    std::uint32_t size = 0;
    const void* base_data = btf__raw_data(base.get(), &size);
    const std::uint32_t base_strings =
        read_header({static_cast<const std::byte*>(base_data), size}).value_or(Header{}).str_len;
    std::string problem;
    const auto check_type = [&](std::uint32_t id, std::uint32_t ref) {
        if (ref >= count && problem.empty())
            problem = fmt::format("type {} refers to type {}, past the last of its base's and its "
                                  "own ({})",
                                  id, ref, count - 1);
    };
    const auto check_name = [&](std::uint32_t id, std::uint32_t offset) {
        if (offset == 0 || !problem.empty())
            return;
        const char* name = btf__name_by_offset(split, offset);
        if (!name || (offset != base_strings && name[-1] != '\0'))
            problem = fmt::format("the name of type {} (string offset {}) starts no string of its "
                                  "base's ({} bytes) or its own",
                                  id, offset, base_strings);
    };
    for (std::uint32_t id = btf__type_cnt(base.get()); id < count && problem.empty(); ++id) {
        const btf_type* t = btf__type_by_id(split, id);
        check_name(id, t->name_off);
        switch (btf_kind(t)) {
        case BTF_KIND_PTR:
        case BTF_KIND_TYPEDEF:
        case BTF_KIND_VOLATILE:
        case BTF_KIND_CONST:
        case BTF_KIND_RESTRICT:
        case BTF_KIND_FUNC:
        case BTF_KIND_VAR:
        case BTF_KIND_DECL_TAG:
        case BTF_KIND_TYPE_TAG:
            check_type(id, t->type);
            break;
        case BTF_KIND_ARRAY:
            check_type(id, btf_array(t)->type);
            check_type(id, btf_array(t)->index_type);
            break;
        case BTF_KIND_STRUCT:
        case BTF_KIND_UNION:
            for (std::uint16_t i = 0; i < btf_vlen(t); ++i) {
                check_name(id, btf_members(t)[i].name_off);
                check_type(id, btf_members(t)[i].type);
            }
            break;
        case BTF_KIND_ENUM:
            for (std::uint16_t i = 0; i < btf_vlen(t); ++i)
                check_name(id, btf_enum(t)[i].name_off);
            break;
        case BTF_KIND_ENUM64:
            for (std::uint16_t i = 0; i < btf_vlen(t); ++i)
                check_name(id, btf_enum64(t)[i].name_off);
            break;
        case BTF_KIND_FUNC_PROTO:
            check_type(id, t->type);
            for (std::uint16_t i = 0; i < btf_vlen(t); ++i) {
                check_name(id, btf_params(t)[i].name_off);
                check_type(id, btf_params(t)[i].type);
            }
            break;
        case BTF_KIND_DATASEC:
            for (std::uint16_t i = 0; i < btf_vlen(t); ++i)
                check_type(id, btf_var_secinfos(t)[i].type);
            break;
        default:
            break;
        }
    }
    if (!problem.empty())
        throw BtfReadError(fmt::format("cannot read BTF from {}: it does not fit base {} ({}); "
                                       "a module's BTF is read over the vmlinux it was built "
                                       "against",
                                       source, base.version(), problem));
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

BtfFile::BtfFile(struct btf* b, std::string version, const std::string& source,
                 std::shared_ptr<const BtfFile> base)
    : base_(std::move(base))
    , btf_(b)
    , version_(std::move(version))
    , origin_(fmt::format("BTF {}, xxh3-128 {}", source, content_hash(b))) {
    if (base_)
        origin_ += " on base " + base_->origin();
}

std::filesystem::path btf_path(std::string_view file_or_module) {
    const std::filesystem::path given(file_or_module);
    std::error_code ec;
    if (file_or_module.empty() || file_or_module.find('/') != std::string_view::npos ||
        std::filesystem::exists(given, ec))
        return given;
    const std::filesystem::path module = std::filesystem::path(kKernelBtfDir) / given;
    if (std::filesystem::exists(module, ec))
        return module;
    throw BtfReadError(fmt::format("cannot read BTF from {}: no such file, and no module of that "
                                   "name in {} (not loaded, or no CONFIG_DEBUG_INFO_BTF_MODULES)",
                                   file_or_module, kKernelBtfDir));
}

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

BtfFile BtfFile::open(const std::filesystem::path& path,
                      const std::optional<std::filesystem::path>& base) {
    const std::string source = path.string();
    const std::string version = "btf:" + path.filename().string();
    if (!file_continues_a_base(path).value_or(false)) {
        if (base)
            throw BtfReadError(fmt::format("cannot read BTF from {} over base {}: it is not split "
                                           "BTF (a module's), the only kind read over a base",
                                           source, base->string()));
        struct btf* b = load_or_throw(source, [&] { return btf__parse(source.c_str(), nullptr); });
        return BtfFile(b, version, source);
    }
    std::error_code ec;
    const std::filesystem::path base_path = base.value_or(kKernelBtfPath);
    if (!std::filesystem::exists(base_path, ec))
        throw BtfReadError(
            fmt::format("cannot read BTF from {}: it is split BTF (a module's), "
                        "read over the vmlinux BTF it was built against, and "
                        "there is no {}{}",
                        source, base_path.string(),
                        base ? "" : " (`layout show --btf-base FILE` names another)"));
    const auto base_file = std::make_shared<const BtfFile>(base ? open(*base) : running_kernel());
    // libbpf takes the base non-const but only reads it.
    struct btf* b = load_or_throw(source, [&] {
        return btf__parse_split(source.c_str(), const_cast<struct btf*>(base_file->get()));
    });
    BtfFile file(b, version, source, base_file);
    check_fits_base(file.get(), *base_file, source);
    return file;
}

BtfFile BtfFile::from_bytes(std::span<const std::byte> bytes, const std::string& name) {
    const std::uint32_t size = checked_size(bytes, name);
    if (continues_a_base(bytes).value_or(false))
        throw BtfReadError(fmt::format("cannot read BTF from {}: it is split BTF (a module's), "
                                       "read over a base, and none was given",
                                       name));
    struct btf* b = load_or_throw(name, [&] { return btf__new(data_of(bytes), size); });
    return BtfFile(b, "btf:" + name, name);
}

BtfFile BtfFile::from_bytes(std::span<const std::byte> bytes, const std::string& name,
                            std::shared_ptr<const BtfFile> base) {
    const std::uint32_t size = checked_size(bytes, name);
    if (!continues_a_base(bytes).value_or(true))
        throw BtfReadError(fmt::format("cannot read BTF from {} over base {}: it is not split "
                                       "BTF (a module's), the only kind read over a base",
                                       name, base->version()));
    // libbpf 1.1 declares btf__new_split() but its libbpf.so does not export it (1.2 does), so
    // the bytes go through an in-memory file to btf__parse_raw_split(), which does the same.
    const ClosedAtExit memory{memfd_create("hitmap-btf", MFD_CLOEXEC)};
    if (memory.fd < 0 || ::write(memory.fd, data_of(bytes), size) != static_cast<ssize_t>(size))
        throw BtfReadError(fmt::format("cannot read BTF from {}: no in-memory file for it ({})",
                                       name, std::strerror(errno)));
    const std::string path = fmt::format("/proc/self/fd/{}", memory.fd);
    struct btf* b = load_or_throw(name, [&] {
        return btf__parse_raw_split(path.c_str(), const_cast<struct btf*>(base->get()));
    });
    BtfFile file(b, "btf:" + name, name, base);
    check_fits_base(file.get(), *base, name);
    return file;
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
