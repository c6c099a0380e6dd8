#include "collector/c2c/address_map.hpp"

#include "collector/c2c/errors.hpp"
#include "engine/layout/composition.hpp"
#include "engine/layout/layout_error.hpp"

#include <algorithm>
#include <bit>
#include <fmt/format.h>

namespace hitmap::c2c {

namespace {

// Regions start above 0 so no line address is 0, which reads like "no address" in reports.
constexpr std::uint64_t kFirstRegion = 0x100000;

std::uint64_t round_up(std::uint64_t v, std::uint64_t align) {
    return (v + align - 1) / align * align;
}

// The bytes a layout covers: its declared size, or more if a (user) layout places a field
// beyond it, so every placed field is addressable.
std::uint32_t extent_of(const engine::Layout& layout) {
    std::uint32_t extent = layout.size;
    for (const auto& p : layout.placement)
        if (p)
            extent = std::max(extent, p->offset + p->size);
    return extent;
}

std::string type_name(const engine::Layout& layout) {
    return layout.type ? layout.type->name : std::string("<untyped>");
}

} // namespace

AddressMap::AddressMap(const std::vector<engine::ObjectInfo>& objects, std::uint32_t line_size,
                       std::optional<std::uint32_t> phase_override,
                       const LayoutOverrides& overrides)
    : line_size_(line_size)
    , line_shift_(static_cast<std::uint32_t>(std::countr_zero(line_size))) {
    if (line_size != 64 && line_size != 128)
        throw ReplayError(fmt::format("line size {} is not supported (use 64 or 128)", line_size));
    if (phase_override && *phase_override >= 64)
        throw ReplayError(fmt::format("phase {} is not a start offset mod 64", *phase_override));

    // Regions are handed out in id order, so the addresses do not depend on the order of the
    // registry vector.
    std::vector<const engine::ObjectInfo*> by_id;
    for (const auto& o : objects)
        by_id.push_back(&o);
    std::sort(by_id.begin(), by_id.end(), [](auto* a, auto* b) { return a->id < b->id; });

    std::uint64_t region = kFirstRegion;
    for (const engine::ObjectInfo* info : by_id) {
        if (info->id < index_by_id_.size() && index_by_id_[info->id] >= 0)
            throw ReplayError(
                fmt::format("object id {} is registered twice ('{}')", info->id, info->name));
        Placed p;
        p.name = info->name;
        p.recorded = info->layout;
        p.layout = info->layout;
        if (info->layout.type) {
            try {
                if (auto l = engine::layout_under(info->layout, overrides)) {
                    p.layout = std::move(*l);
                    p.overridden = true;
                }
            } catch (const engine::LayoutError& e) {
                throw ReplayError(fmt::format("object '{}': {}", info->name, e.what()));
            }
        }
        const std::uint32_t phase = phase_override.value_or(info->phase % 64);
        p.extent = extent_of(p.layout);
        p.base = region + phase;
        p.first_line = static_cast<std::uint32_t>(lines_.size());
        if (p.extent > 0) {
            const std::uint64_t first = p.base >> line_shift_;
            const std::uint64_t last = (p.base + p.extent - 1) >> line_shift_;
            for (std::uint64_t l = first; l <= last; ++l)
                lines_.push_back(
                    LineInfo{info->id, static_cast<std::uint32_t>(l - first), l << line_shift_});
        }
        region += std::max(kRegionAlign, round_up(phase + p.extent, kRegionAlign));

        if (info->id >= index_by_id_.size())
            index_by_id_.resize(std::size_t{info->id} + 1, -1);
        index_by_id_[info->id] = static_cast<std::int32_t>(objects_.size());
        objects_.push_back(std::move(p));
    }
}

const AddressMap::Placed& AddressMap::placed(engine::ObjectId object) const {
    if (object >= index_by_id_.size() || index_by_id_[object] < 0)
        throw ReplayError(fmt::format("object id {} is not in the object registry", object));
    return objects_[static_cast<std::size_t>(index_by_id_[object])];
}

AccessSpans AddressMap::locate(engine::ObjectId object, engine::FieldId field,
                               std::uint32_t recorded_offset, std::uint32_t size) const {
    const Placed& p = placed(object);
    std::int64_t offset = recorded_offset;
    if (p.overridden) {
        if (!p.layout.has(field))
            throw ReplayError(fmt::format("object '{}': field {} ('{}') is absent from layout {} "
                                          "of {}",
                                          p.name, field, field_name(object, field),
                                          p.layout.version, type_name(p.layout)));
        // Keep the access's position inside its field (normally 0) when the field moves.
        const engine::Layout& recorded = p.recorded;
        const std::int64_t within =
            recorded.has(field) ? std::int64_t{recorded_offset} - recorded.at(field).offset : 0;
        offset = std::int64_t{p.layout.at(field).offset} + within;
    }
    if (size > line_size_)
        throw ReplayError(fmt::format("object '{}': a {}-byte access to field {} is wider than a "
                                      "{}-byte line",
                                      p.name, size, field, line_size_));
    if (offset < 0 || offset + size > p.extent)
        throw ReplayError(fmt::format("object '{}': access to field {} at offset {} ({} bytes) is "
                                      "outside its {} bytes under layout {}",
                                      p.name, field, offset, size, p.extent, p.layout.version));

    AccessSpans out;
    out.offset = static_cast<std::uint32_t>(offset);
    const std::uint64_t begin = p.base + static_cast<std::uint64_t>(offset);
    const std::uint64_t end = begin + size;
    const std::uint64_t first_global = p.base >> line_shift_;
    for (std::uint64_t a = begin; a < end;) {
        const std::uint64_t line_start = a >> line_shift_ << line_shift_;
        const std::uint64_t stop = std::min(end, line_start + line_size_);
        // size <= line size, so two spans always suffice.
        out.spans[out.count++] =
            LineSpan{p.first_line + static_cast<std::uint32_t>((a >> line_shift_) - first_global),
                     static_cast<std::uint16_t>(a - line_start),
                     static_cast<std::uint16_t>(stop - line_start)};
        a = stop;
    }
    return out;
}

std::string AddressMap::field_name(engine::ObjectId object, engine::FieldId field) const {
    const engine::Layout& layout = placed(object).layout;
    if (layout.type && field < layout.type->fields.size())
        return layout.type->fields[field];
    return fmt::format("field#{}", field);
}

} // namespace hitmap::c2c
