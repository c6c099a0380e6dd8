#pragma once
// A line-aligned layout as the kernel would write it: the struct ____cacheline_aligned_in_smp,
// CACHELINE_PADDING() between lines (include/linux/cache.h since v6.1, Shakeel Butt's "mm:
// deduplicate cacheline padding code"), and optionally each line fenced by
// __cacheline_group_begin/end() (include/linux/cache.h since v6.8, "cache: enforce cache
// groups"). The compiler's natural alignment then gives every field the layout's offset.
#include "engine/layout/layout.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace hitmap::layoutopt {

enum class CStyle {
    // CACHELINE_PADDING(_padN_) between lines, as page_counter has since v6.1
    padding,
    // and each line between __cacheline_group_begin(lineK) and _end(lineK)
    groups,
};

// "padding" or "groups"; nullopt otherwise.
std::optional<CStyle> parse_c_style(std::string_view text);

// The field's C type, from the role its struct type declares for it (engine::FieldRole: an
// atomic_long_t hot counter, an unsigned long limit, a pointer to the parent, a bool flag); for
// a plain field, an unsigned type of the field's size.
std::string c_type(const engine::StructType& type, engine::FieldId field);

// Throws OptimizeError when a field name is not a C identifier, or when the layout is not line
// aligned with each line's fields naturally packed in offset order (what the C gives).
std::string c_struct(const engine::Layout& layout, CStyle style);

} // namespace hitmap::layoutopt
