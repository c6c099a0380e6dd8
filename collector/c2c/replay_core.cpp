#include "collector/c2c/replay_core.hpp"

namespace hitmap::c2c {

ReplayCore::ReplayCore(const std::vector<engine::ObjectInfo>& objects, const ReplayConfig& config)
    : map_(objects, config.line_size, config.phase_override, config.layouts)
    , model_(map_.line_count(), config.line_size)
    , table_(config.costs, map_.line_count()) {
    std::size_t ids = 0;
    for (const auto& o : objects)
        ids = std::max(ids, std::size_t{o.id} + 1);
    fast_.resize(ids << 8);
}

void ReplayCore::on_miss(std::uint32_t part, const Outcome& o, Attribution::Cell& cell) {
    cell.invalidations += o.invalidations;
    if (o.cls == AccessClass::load_hitm || o.cls == AccessClass::store_hitm ||
        o.cls == AccessClass::store_shared)
        attribution_.add_pair(part, o);
}

// First sight of an (object, field, offset, size): place it, and cache it for the hot loop.
const AccessSlot& ReplayCore::resolve(const engine::TraceRecord& r) {
    const auto log2_size = static_cast<std::uint8_t>((r.kind_size >> 2) & 7u);
    auto [it, inserted] = slots_.try_emplace({r.object, r.field, r.offset, log2_size});
    AccessSlot& slot = it->second;
    if (inserted) {
        AccessSpans spans;
        try {
            spans = map_.locate(r.object, r.field, r.offset, r.size());
        } catch (...) {
            slots_.erase(it);
            throw;
        }
        slot.match = AccessSlot::match_of(r);
        // Parts of one access are numbered consecutively, so first_part + parts covers them.
        slot.first_part = attribution_.add_part({r.object, r.field, spans.spans[0]});
        for (std::uint32_t i = 1; i < spans.count; ++i)
            attribution_.add_part({r.object, r.field, spans.spans[i]});
        slot.parts = spans.count;
        slot.span = spans.spans[0];
    }
    const std::size_t fi = (std::size_t{r.object} << 8) | r.field;
    if (fi < fast_.size())
        fast_[fi] = slot;
    return slot;
}

} // namespace hitmap::c2c
