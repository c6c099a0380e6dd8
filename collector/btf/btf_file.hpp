#pragma once
// Loaded BTF type information, from the running kernel, a file or bytes in memory, with what it
// is keyed by: a layout read from it names the source and the hash of its bytes, because
// randstruct kernels lay the same struct out differently in every build.
#include <cstddef>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

struct btf; // libbpf's

namespace hitmap::btf {

// kernel/bpf/sysfs_btf.c publishes the running kernel's BTF here (CONFIG_DEBUG_INFO_BTF, 5.5+).
inline constexpr const char* kKernelBtfPath = "/sys/kernel/btf/vmlinux";

class BtfFile {
public:
    // Throws BtfReadError naming the source and the decoded reason.
    static BtfFile running_kernel();
    // Raw BTF (a /sys/kernel/btf file) or an ELF object with a .BTF section (vmlinux).
    static BtfFile open(const std::filesystem::path& path);
    // Raw BTF bytes; `name` stands for them in versions and messages.
    static BtfFile from_bytes(std::span<const std::byte> bytes, const std::string& name);

    const struct btf* get() const { return btf_.get(); }
    // "btf:6.18.0" (the running kernel's release) or "btf:FILE" (the file name).
    const std::string& version() const { return version_; }
    // "BTF /sys/kernel/btf/vmlinux (kernel 6.18.0), xxh3-128 <32 hex digits>"
    const std::string& origin() const { return origin_; }
    // The names of every named struct and union, in type-id order (a name may repeat; a name
    // that is not a C identifier, in corrupted BTF, is left out).
    std::vector<std::string> composite_names() const;

private:
    struct Free {
        void operator()(struct btf* b) const;
    };
    BtfFile(struct btf* b, std::string version, const std::string& source);

    std::unique_ptr<struct btf, Free> btf_;
    std::string version_;
    std::string origin_;
};

} // namespace hitmap::btf
