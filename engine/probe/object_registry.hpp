#pragma once
// The objects of one run whose fields are probed: id, readable name, layout and start phase.
// A trace record carries only the id; this table gives it a name and a place in memory.
#include "engine/layout/layout.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace hitmap::engine {

using ObjectId = std::uint16_t;

struct ObjectInfo {
    ObjectId id = 0;
    std::string name;        // e.g. "top/mid/leaf/memory"
    Layout layout;           // the layout the object was recorded under
    std::uint32_t phase = 0; // start offset of the object modulo 64 (the line it starts in)
};

class ObjectRegistry {
public:
    // `address`: where the object's first byte lives in this process, for hardware samples,
    // whose data addresses are real ones; 0 when the object has no memory of its own.
    ObjectId add(std::string name, const Layout& layout, std::uint32_t phase,
                 std::uint64_t address = 0);
    const std::vector<ObjectInfo>& objects() const { return objects_; }
    const ObjectInfo& at(ObjectId id) const { return objects_.at(id); }
    // The address given to add(), by id. Valid while the run that made the objects lasts; kept
    // after it only to attribute the samples it took.
    const std::vector<std::uint64_t>& addresses() const { return addresses_; }

private:
    std::vector<ObjectInfo> objects_;
    std::vector<std::uint64_t> addresses_;
};

} // namespace hitmap::engine
