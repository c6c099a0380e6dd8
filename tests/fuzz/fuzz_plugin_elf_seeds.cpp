// Writes the seed corpus of fuzz_plugin_elf into the folder it is given: the smallest shared
// object the check accepts (an ELF header, a PT_LOAD over the whole image and a PT_DYNAMIC
// inside it) for this machine, built here rather than kept as a binary file.
#include <cstring>
#include <elf.h>
#include <filesystem>
#include <fstream>
#include <vector>

int main(int argc, char** argv) {
    if (argc != 2)
        return 2;
    constexpr std::size_t kSize = sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr) + 16;
    std::vector<char> image(kSize);
    Elf64_Ehdr h{};
    std::memcpy(h.e_ident, ELFMAG, SELFMAG);
    h.e_ident[EI_CLASS] = ELFCLASS64;
    h.e_ident[EI_DATA] = ELFDATA2LSB;
    h.e_ident[EI_VERSION] = EV_CURRENT;
    h.e_type = ET_DYN;
    h.e_machine = EM_X86_64;
    h.e_version = EV_CURRENT;
    h.e_phoff = sizeof h;
    h.e_ehsize = sizeof h;
    h.e_phentsize = sizeof(Elf64_Phdr);
    h.e_phnum = 2;
    std::memcpy(image.data(), &h, sizeof h);
    Elf64_Phdr load{PT_LOAD, PF_R, 0, 0, 0, kSize, kSize, 0x1000};
    Elf64_Phdr dynamic{PT_DYNAMIC, PF_R, kSize - 16, kSize - 16, kSize - 16, 16, 16, 8};
    std::memcpy(image.data() + sizeof h, &load, sizeof load);
    std::memcpy(image.data() + sizeof h + sizeof load, &dynamic, sizeof dynamic);
    std::ofstream(std::filesystem::path(argv[1]) / "minimal.so", std::ios::binary)
        .write(image.data(), static_cast<std::streamsize>(image.size()));
    return 0;
}
