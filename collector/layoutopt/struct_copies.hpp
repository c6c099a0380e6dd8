#pragma once
// Where the struct being optimized lives in a run: objects of the struct itself, or the copies
// embedded in each object of a struct that embeds it (engine/layout/composition.hpp), at any
// depth. Every copy takes the layout under optimization, so costs are summed over all of them.
#include "engine/layout/layout.hpp"
#include "engine/probe/object_registry.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace hitmap::layoutopt {

// A field of one copy of the struct.
struct CopyField {
    std::uint32_t copy = 0;    // which copy (object, or object and embedded copy)
    engine::FieldId field = 0; // the field in the optimized struct's type
};

class StructCopies {
public:
    // Throws OptimizeError when no object holds `type`, when the copies were recorded under
    // different layouts, or when an embedded copy's layout is neither a known one nor one its
    // container's offsets give back.
    StructCopies(const engine::StructType& type, const std::vector<engine::ObjectInfo>& objects);

    const engine::StructType& type() const { return *type_; }
    // The layout every copy was recorded under.
    const engine::Layout& current() const { return current_; }
    std::size_t count() const { return count_; }

    // The copy and struct field an object's field is; nullopt for the container's own fields
    // and for objects that hold no copy.
    std::optional<CopyField> field_of(engine::ObjectId object, engine::FieldId field) const;

private:
    const engine::StructType* type_;
    engine::Layout current_;
    std::size_t count_ = 0;
    // By ObjectId: the first copy index of the object, and the object's type when it embeds
    // the copies (null when it is one).
    struct Holder {
        std::uint32_t first_copy = 0;
        const engine::StructType* container = nullptr;
    };
    std::vector<std::optional<Holder>> holders_;
};

} // namespace hitmap::layoutopt
