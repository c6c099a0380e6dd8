#pragma once
// Hand-built traces for the replay tests: a tiny struct type, layouts for it, and a builder
// that appends records per thread and hands out ThreadTrace spans.
#include "collector/c2c/trace_merger.hpp"
#include "engine/layout/layout.hpp"
#include "engine/probe/object_registry.hpp"
#include "engine/probe/trace_record.hpp"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace hitmap::c2c::testing {

enum Field : engine::FieldId { x, y, z };

inline const engine::StructType& pair_type() {
    static const engine::StructType type{"pair", {"x", "y", "z"}};
    return type;
}

// x, y, z: 8-byte fields at the given offsets.
inline engine::Layout pair_layout(std::string version, std::uint32_t size, std::uint32_t x_off,
                                  std::uint32_t y_off, std::uint32_t z_off) {
    engine::Layout l{&pair_type(), std::move(version), size, 8, {}};
    l.placement = {engine::FieldPlacement{x_off, 8}, engine::FieldPlacement{y_off, 8},
                   engine::FieldPlacement{z_off, 8}};
    return l;
}

// x, y, z packed in one line.
inline engine::Layout packed() {
    return pair_layout("packed", 24, 0, 8, 16);
}
// x, y, z each on its own 64-byte line.
inline engine::Layout padded() {
    return pair_layout("padded", 192, 0, 64, 128);
}

inline std::vector<engine::ObjectInfo> one_object(const engine::Layout& layout,
                                                  std::uint32_t phase = 0) {
    return {engine::ObjectInfo{0, "obj", layout, phase}};
}

class TraceBuilder {
public:
    explicit TraceBuilder(const engine::Layout& recording)
        : recording_(recording) {}

    // One access by `thread` running on `cpu`, to field f of object 0 (recording offsets).
    TraceBuilder& add(std::uint32_t thread, std::uint64_t tsc, std::uint16_t cpu, Field f,
                      engine::AccessKind kind, std::uint16_t object = 0) {
        const auto offset = static_cast<std::uint16_t>(recording_.at(f).offset);
        streams_[thread].push_back(
            engine::TraceRecord::make(tsc, cpu, object, f, kind, 3, offset, 0));
        return *this;
    }

    std::vector<ThreadTrace> threads() const {
        std::vector<ThreadTrace> out;
        for (const auto& [thread, records] : streams_)
            out.push_back(ThreadTrace{thread, records});
        return out;
    }

private:
    engine::Layout recording_;
    std::map<std::uint32_t, std::vector<engine::TraceRecord>> streams_;
};

} // namespace hitmap::c2c::testing
