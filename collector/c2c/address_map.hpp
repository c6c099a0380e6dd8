#pragma once
// Gives every recorded object a place in a virtual address space, so an access
// (object, field, offset) becomes (line, byte range). Each object gets its own 4 KiB-aligned
// region plus its start phase, as a real allocation would; a different layout or phase
// therefore moves fields across lines exactly as the real change would.
#include "engine/layout/layout.hpp"
#include "engine/probe/object_registry.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hitmap::c2c {

// Replay under another layout: struct type name -> the layout to use for every object of it.
using LayoutOverrides = std::map<std::string, engine::Layout, std::less<>>;

// A line that some object occupies. Dense line indices number these 0..line_count()-1.
struct LineInfo {
    engine::ObjectId object = 0;
    std::uint32_t index = 0;   // line index within the object, counted from its first byte's line
    std::uint64_t address = 0; // virtual line address
};

// The part of one access that falls in one line; an access straddling a line boundary has two.
struct LineSpan {
    std::uint32_t line = 0; // dense line index
    std::uint16_t lo = 0;   // byte range [lo, hi) within the line
    std::uint16_t hi = 0;
};

struct AccessSpans {
    std::uint32_t offset = 0; // byte offset within the object under the replay layout
    std::uint32_t count = 0;  // 1, or 2 for an access split across two lines
    std::array<LineSpan, 2> spans{};
};

class AddressMap {
public:
    static constexpr std::uint64_t kRegionAlign = 4096;

    // line_size must be 64 or 128; phase_override (< 64) replaces every object's phase.
    AddressMap(const std::vector<engine::ObjectInfo>& objects, std::uint32_t line_size,
               std::optional<std::uint32_t> phase_override, const LayoutOverrides& overrides);

    std::uint32_t line_size() const { return line_size_; }
    std::size_t line_count() const { return lines_.size(); }
    const LineInfo& line(std::uint32_t dense) const { return lines_[dense]; }

    // Where an access recorded at recorded_offset (under the recording layout) lands under the
    // replay layout. Throws ReplayError for an unknown object, a field absent from the replay
    // layout, or an access outside the object.
    AccessSpans locate(engine::ObjectId object, engine::FieldId field,
                       std::uint32_t recorded_offset, std::uint32_t size) const;

    // The field's name in the replay layout's struct type ("field#N" when the type is unnamed).
    std::string field_name(engine::ObjectId object, engine::FieldId field) const;

private:
    // Copies, not pointers: the map may outlive the registry vector and overrides it came from.
    struct Placed {
        std::string name;
        engine::Layout recorded;
        engine::Layout layout; // the replay layout
        bool overridden = false;
        std::uint64_t base = 0;       // virtual address of the object's first byte
        std::uint32_t extent = 0;     // bytes the replay layout covers
        std::uint32_t first_line = 0; // dense index of the line holding the first byte
    };

    const Placed& placed(engine::ObjectId object) const;

    std::uint32_t line_size_;
    std::uint32_t line_shift_;
    std::vector<Placed> objects_;
    std::vector<std::int32_t> index_by_id_; // ObjectId -> index in objects_, -1 if unknown
    std::vector<LineInfo> lines_;
};

} // namespace hitmap::c2c
