#pragma once
// Where the struct being optimized lives in a run: objects of the struct itself, or the
// page_counters embedded in each struct mem_cgroup (memory, swap, kmem, tcpmem). Every copy
// takes the layout under optimization, so costs are summed over all of them.
#include "engine/layout/layout.hpp"
#include "engine/probe/object_registry.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace hitmap::layoutopt {

// A field of one copy of the struct.
struct CopyField {
    std::uint32_t copy = 0;    // which copy (object, or object and embedded counter)
    engine::FieldId field = 0; // the field in the optimized struct's type
};

class StructCopies {
public:
    // Throws OptimizeError when no object holds `type`, when the copies were recorded under
    // different layouts, or when an embedded page_counter's layout is not a known one.
    StructCopies(const engine::StructType& type, const std::vector<engine::ObjectInfo>& objects);

    const engine::StructType& type() const { return *type_; }
    // The layout every copy was recorded under.
    const engine::Layout& current() const { return current_; }
    std::size_t count() const { return count_; }

    // The copy and struct field an object's field is; nullopt for the object's other fields
    // (css.parent of a mem_cgroup) and for objects that hold no copy.
    std::optional<CopyField> field_of(engine::ObjectId object, engine::FieldId field) const;

private:
    const engine::StructType* type_;
    engine::Layout current_;
    std::size_t count_ = 0;
    // By ObjectId: the first copy index of the object, and whether it embeds page_counters.
    struct Holder {
        std::uint32_t first_copy = 0;
        bool embeds_counters = false;
    };
    std::vector<std::optional<Holder>> holders_;
};

} // namespace hitmap::layoutopt
