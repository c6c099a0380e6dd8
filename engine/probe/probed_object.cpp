#include "engine/probe/probed_object.hpp"

#include "engine/layout/layout_error.hpp"

#include <bit>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <new>

namespace hitmap::engine {

namespace {
// Each object gets its own pages, so objects never share a line by accident of the allocator:
// the only sharing hitmap sees is the sharing inside the modelled struct.
constexpr std::size_t kObjectAlignment = 4096;
} // namespace

void ProbedObject::FreeStorage::operator()(std::byte* p) const {
    std::free(p);
}

ProbedObject::ProbedObject(ObjectRegistry& registry, std::string name, const Layout& layout,
                           std::uint32_t phase)
    : layout_(layout) {
    if (layout.placement.size() > std::size(offset_))
        throw LayoutError(fmt::format("struct {} has too many fields", layout.type->name));
    if (phase % 64 % 8 != 0)
        throw LayoutError(fmt::format("start phase {} is not a multiple of 8", phase));
    const std::size_t bytes =
        (layout.size + phase % 64 + kObjectAlignment - 1) / kObjectAlignment * kObjectAlignment;
    auto* raw = static_cast<std::byte*>(std::aligned_alloc(kObjectAlignment, bytes));
    if (!raw)
        throw std::bad_alloc();
    std::memset(raw, 0, bytes);
    storage_.reset(raw);
    base_ = raw + phase % 64;
    for (FieldId f = 0; f < layout.placement.size(); ++f) {
        if (!layout.has(f))
            continue;
        offset_[f] = static_cast<std::uint16_t>(layout.at(f).offset);
        log2_size_[f] = static_cast<std::uint8_t>(std::countr_zero(layout.at(f).size));
    }
    id_ = registry.add(std::move(name), layout, phase, reinterpret_cast<std::uintptr_t>(base_));
}

} // namespace hitmap::engine
