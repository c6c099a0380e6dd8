#pragma once
// One exception type per failure kind, each with a decoded one-line message. A layout that the
// engine cannot use (a field the BTF lacks, a member of the wrong size) is an
// engine::LayoutError, as for any other layout source.
#include <stdexcept>

namespace hitmap::btf {

// BTF that cannot be loaded: a missing or unreadable file, bytes that are not BTF (bad magic,
// truncated header or sections), an ELF file without a .BTF section, a module's split BTF
// without its base or over a base it was not built against. what() names the source and the
// decoded error, with libbpf's own words when it gave any.
class BtfReadError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// BTF that loaded but describes a struct no compiler could lay out: a member past the end of
// its struct, types nested deeper than libbpf itself follows (a cycle). Only hand-made or
// corrupted BTF does this.
class BtfFormatError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// No struct of that name in the BTF. what() says when a union or typedef of that name exists.
class StructNotFound : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace hitmap::btf
