#include "engine/probe/object_registry.hpp"

#include <limits>
#include <stdexcept>

namespace hitmap::engine {

ObjectId ObjectRegistry::add(std::string name, const Layout& layout, std::uint32_t phase,
                             std::uint64_t address) {
    if (objects_.size() > std::numeric_limits<ObjectId>::max())
        throw std::length_error("too many probed objects in one run");
    const auto id = static_cast<ObjectId>(objects_.size());
    objects_.push_back(ObjectInfo{id, std::move(name), layout, phase % 64});
    addresses_.push_back(address);
    return id;
}

} // namespace hitmap::engine
