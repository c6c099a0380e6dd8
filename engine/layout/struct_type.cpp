#include "engine/layout/layout.hpp"

#include <algorithm>

namespace hitmap::engine {

std::optional<FieldId> StructType::field_id(std::string_view field) const {
    const auto it = std::find(fields.begin(), fields.end(), field);
    if (it == fields.end())
        return std::nullopt;
    return static_cast<FieldId>(it - fields.begin());
}

} // namespace hitmap::engine
