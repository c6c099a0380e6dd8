#pragma once
// Loaded BTF type information, from the running kernel, a file or bytes in memory, with what it
// is keyed by: a layout read from it names the source and the hash of its bytes, because
// randstruct kernels lay the same struct out differently in every build. A kernel module's BTF
// is split BTF: only the module's own types, numbered on from its base's (vmlinux's), whose
// types and strings it refers to; it is read over that base.
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

struct btf; // libbpf's

namespace hitmap::btf {

// kernel/bpf/sysfs_btf.c publishes the running kernel's BTF here (CONFIG_DEBUG_INFO_BTF, 5.5+),
// and kernel/bpf/btf.c each loaded module's beside it as /sys/kernel/btf/MODULE
// (CONFIG_DEBUG_INFO_BTF_MODULES, 5.11+).
inline constexpr const char* kKernelBtfDir = "/sys/kernel/btf";
inline constexpr const char* kKernelBtfPath = "/sys/kernel/btf/vmlinux";

// The file `--btf FILE|MODULE` names: FILE, or for a bare name (no '/') that is no file in the
// working directory, the loaded module's /sys/kernel/btf/MODULE. Throws BtfReadError for a bare
// name that is neither.
std::filesystem::path btf_path(std::string_view file_or_module);

class BtfFile {
public:
    // Throws BtfReadError naming the source and the decoded reason.
    static BtfFile running_kernel();
    // Raw BTF (a /sys/kernel/btf file) or an ELF object with a .BTF section (vmlinux, a
    // module's .ko). Split BTF is read over `base` (a raw or ELF vmlinux), by default the
    // running kernel's; a base for BTF that is not split is refused, as is a split BTF that
    // does not fit its base (BtfReadError).
    static BtfFile open(const std::filesystem::path& path,
                        const std::optional<std::filesystem::path>& base = std::nullopt);
    // Raw BTF bytes; `name` stands for them in versions and messages. Split BTF is refused.
    static BtfFile from_bytes(std::span<const std::byte> bytes, const std::string& name);
    // Raw split BTF bytes over `base`, which they keep alive (one base serves many).
    static BtfFile from_bytes(std::span<const std::byte> bytes, const std::string& name,
                              std::shared_ptr<const BtfFile> base);

    // Includes the base's types when split (type ids continue the base's).
    const struct btf* get() const { return btf_.get(); }
    // The base of split BTF; null otherwise.
    const BtfFile* base() const { return base_.get(); }
    // "btf:6.18.0" (the running kernel's release) or "btf:FILE" (the file name).
    const std::string& version() const { return version_; }
    // "BTF /sys/kernel/btf/vmlinux (kernel 6.18.0), xxh3-128 <32 hex digits>"; split BTF adds
    // its base's: "BTF /sys/kernel/btf/MODULE, xxh3-128 <hash> on base BTF ...vmlinux..."
    const std::string& origin() const { return origin_; }
    // The names of every named struct and union, in type-id order (a name may repeat; a name
    // that is not a C identifier, in corrupted BTF, is left out); split BTF's include its base's.
    std::vector<std::string> composite_names() const;

private:
    struct Free {
        void operator()(struct btf* b) const;
    };
    BtfFile(struct btf* b, std::string version, const std::string& source,
            std::shared_ptr<const BtfFile> base = nullptr);

    // Before btf_, so that it outlives it: split BTF reads its base's types in place.
    std::shared_ptr<const BtfFile> base_;
    std::unique_ptr<struct btf, Free> btf_;
    std::string version_;
    std::string origin_;
};

} // namespace hitmap::btf
