#include "engine/layout/layout.hpp"

#include <algorithm>

namespace hitmap::engine {

std::optional<FieldId> StructType::field_id(std::string_view field) const {
    const auto it = std::find(fields.begin(), fields.end(), field);
    if (it == fields.end())
        return std::nullopt;
    return static_cast<FieldId>(it - fields.begin());
}

FieldRole StructType::role(FieldId field) const {
    return field < roles.size() ? roles[field] : FieldRole::plain;
}

std::vector<FieldId> StructType::fields_with(FieldRole wanted) const {
    std::vector<FieldId> out;
    for (FieldId f = 0; f < fields.size(); ++f)
        if (role(f) == wanted)
            out.push_back(f);
    return out;
}

bool same_placement(const Layout& a, const Layout& b) {
    return std::equal(a.placement.begin(), a.placement.end(), b.placement.begin(),
                      b.placement.end(), [](const auto& x, const auto& y) {
                          return x.has_value() == y.has_value() &&
                                 (!x || (x->offset == y->offset && x->size == y->size));
                      });
}

} // namespace hitmap::engine
