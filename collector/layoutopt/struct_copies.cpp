#include "collector/layoutopt/struct_copies.hpp"

#include "collector/layoutopt/errors.hpp"
#include "engine/layout/composition.hpp"
#include "engine/layout/layout_error.hpp"

#include <fmt/format.h>

namespace hitmap::layoutopt {

namespace {

// The layout of `type` a composed container holds; the engine's LayoutError said as the
// optimizer's.
engine::Layout layout_embedded_in(const engine::Layout& container, const engine::StructType& type) {
    try {
        return engine::embedded_layout(container, type);
    } catch (const engine::LayoutError& e) {
        throw OptimizeError(e.what());
    }
}

} // namespace

StructCopies::StructCopies(const engine::StructType& type,
                           const std::vector<engine::ObjectInfo>& objects)
    : type_(&type) {
    std::optional<engine::Layout> seen;
    for (const engine::ObjectInfo& o : objects) {
        // An object of an unknown struct (none in the registry) holds no copy.
        if (!o.layout.type)
            continue;
        const unsigned embedded =
            o.layout.type == &type ? 0 : engine::embedded_copies(*o.layout.type, type);
        if (o.layout.type != &type && embedded == 0)
            continue;
        engine::Layout layout = embedded ? layout_embedded_in(o.layout, type) : o.layout;
        if (seen && !engine::same_placement(*seen, layout))
            throw OptimizeError(fmt::format("the run's copies of struct {} have different "
                                            "layouts ({} and {}): optimize a run of one layout",
                                            type.name, seen->version, layout.version));
        if (!seen)
            seen = std::move(layout);
        if (holders_.size() <= o.id)
            holders_.resize(o.id + 1u);
        holders_[o.id] =
            Holder{static_cast<std::uint32_t>(count_), embedded ? o.layout.type : nullptr};
        count_ += embedded ? embedded : 1;
    }
    if (!seen) {
        const auto containers = engine::containers_of(type);
        throw OptimizeError(fmt::format(
            "the run has no struct {}{}", type.name,
            containers.empty()
                ? std::string()
                : fmt::format(" (nor a {} embedding one)", containers.front()->container->name)));
    }
    current_ = std::move(*seen);
}

std::optional<CopyField> StructCopies::field_of(engine::ObjectId object,
                                                engine::FieldId field) const {
    if (object >= holders_.size() || !holders_[object])
        return std::nullopt;
    const Holder& h = *holders_[object];
    if (!h.container)
        return CopyField{h.first_copy, field};
    const auto member = engine::embedded_field(*h.container, *type_, field);
    if (!member)
        return std::nullopt;
    return CopyField{h.first_copy + member->copy, member->field};
}

} // namespace hitmap::layoutopt
