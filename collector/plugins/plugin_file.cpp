#include "collector/plugins/plugin_file.hpp"

#include "collector/plugins/plugin_loader.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <gelf.h>
#include <libelf.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace hitmap::plugins {

namespace {

struct ElfCloser {
    void operator()(Elf* e) const { elf_end(e); }
};
using ElfHandle = std::unique_ptr<Elf, ElfCloser>;

// What a library must match: the process that loads it.
struct ElfIdentity {
    int elf_class = ELFCLASSNONE;
    int data = ELFDATANONE;
    GElf_Half machine = EM_NONE;
};

std::string machine_name(GElf_Half machine) {
    switch (machine) {
    case EM_X86_64:
        return "x86_64";
    case EM_386:
        return "i386";
    case EM_AARCH64:
        return "aarch64";
    case EM_ARM:
        return "arm";
    case EM_RISCV:
        return "riscv";
    case EM_PPC64:
        return "ppc64";
    case EM_S390:
        return "s390";
    case EM_LOONGARCH:
        return "loongarch";
    default:
        return fmt::format("ELF machine {}", machine);
    }
}

std::string class_name(int elf_class) {
    return elf_class == ELFCLASS64   ? "64-bit"
           : elf_class == ELFCLASS32 ? "32-bit"
                                     : "unknown-class";
}

std::string data_name(int data) {
    return data == ELFDATA2LSB   ? "little-endian"
           : data == ELFDATA2MSB ? "big-endian"
                                 : "unknown byte order";
}

// Reads an opened image's identity and checks its segments against `size`; what is wrong, or
// nullopt. `want` is null when reading the running executable itself.
std::optional<std::string> problem(Elf* elf, std::uint64_t size, const ElfIdentity* want,
                                   ElfIdentity* identity = nullptr) {
    if (!elf || elf_kind(elf) != ELF_K_ELF)
        return "not an ELF shared library";
    GElf_Ehdr header;
    if (!gelf_getehdr(elf, &header))
        return fmt::format("a damaged ELF file ({})", elf_errmsg(-1));
    const ElfIdentity mine{header.e_ident[EI_CLASS], header.e_ident[EI_DATA], header.e_machine};
    if (identity)
        *identity = mine;
    if (want) {
        if (mine.elf_class != want->elf_class || mine.data != want->data ||
            mine.machine != want->machine)
            return fmt::format("built for {} ({}, {}); this hitmap runs on {} ({}, {})",
                               machine_name(mine.machine), class_name(mine.elf_class),
                               data_name(mine.data), machine_name(want->machine),
                               class_name(want->elf_class), data_name(want->data));
        if (header.e_type != ET_DYN)
            return "not a shared library (its ELF type is not ET_DYN): build it as a MODULE";
    }
    std::size_t segments = 0;
    if (elf_getphdrnum(elf, &segments) != 0)
        return fmt::format("a damaged ELF file: its program headers cannot be read ({})",
                           elf_errmsg(-1));
    if (segments == 0)
        return "a damaged ELF file: it has no program headers";
    for (std::size_t i = 0; i < segments; ++i) {
        GElf_Phdr segment;
        if (!gelf_getphdr(elf, static_cast<int>(i), &segment))
            return fmt::format("a damaged ELF file: program header {} cannot be read ({})", i,
                               elf_errmsg(-1));
        // dlopen maps each PT_LOAD's file bytes and reads the others' (PT_DYNAMIC, PT_NOTE, ...)
        // through them: every segment's bytes must be in the file.
        const std::uint64_t end = segment.p_offset + segment.p_filesz;
        if (end < segment.p_offset || end > size)
            return fmt::format("truncated or damaged: segment {} needs bytes up to {}, the file "
                               "has {}",
                               i, end, size);
    }
    return std::nullopt;
}

const ElfIdentity& running_executable() {
    static const ElfIdentity identity = [] {
        ElfIdentity id;
        const int fd = ::open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            struct stat st {};
            ::fstat(fd, &st);
            const ElfHandle elf(elf_begin(fd, ELF_C_READ, nullptr));
            problem(elf.get(), static_cast<std::uint64_t>(st.st_size), nullptr, &id);
            ::close(fd);
        }
        return id;
    }();
    return identity;
}

bool library_ready() {
    static const bool ready = elf_version(EV_CURRENT) != EV_NONE;
    return ready;
}

} // namespace

std::optional<std::string> plugin_image_problem(std::span<const std::byte> image) {
    if (!library_ready())
        return "libelf cannot be initialised";
    // ELF_C_READ on memory only reads it; the cast is libelf's interface.
    const ElfHandle elf(
        elf_memory(const_cast<char*>(reinterpret_cast<const char*>(image.data())), image.size()));
    return problem(elf.get(), image.size(), &running_executable());
}

void check_plugin_file(const std::filesystem::path& path) {
    auto fail = [&](const std::string& why) {
        throw PluginError(fmt::format("plugin {}: {}", path.string(), why));
    };
    if (!library_ready())
        fail("libelf cannot be initialised");
    // O_NONBLOCK: a FIFO put in the plugin's place must not block the open; it is refused below.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        fail(errno == ENOENT ? "no such file" : std::strerror(errno));
    struct stat st {};
    const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    std::optional<std::string> why;
    if (!regular) {
        why = "not a regular file";
    } else {
        const ElfHandle elf(elf_begin(fd, ELF_C_READ, nullptr));
        why = problem(elf.get(), static_cast<std::uint64_t>(st.st_size), &running_executable());
    }
    ::close(fd);
    if (why)
        fail(*why);
}

} // namespace hitmap::plugins
