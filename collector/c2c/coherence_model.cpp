#include "collector/c2c/coherence_model.hpp"

#include <algorithm>

namespace hitmap::c2c {

CoherenceModel::CoherenceModel(std::size_t lines, std::uint32_t line_size)
    : line_size_(line_size)
    , lines_(lines)
    , byte_writer_(lines * line_size, Outcome::kNoWriter) {}

Outcome CoherenceModel::miss(std::uint32_t line, CpuIndex cpu, bool write, std::uint16_t lo,
                             std::uint16_t hi, std::uint32_t tag) {
    LineState& s = lines_[line];
    Outcome out;
    if (s.holders.none()) {
        out.cls = AccessClass::cold;
    } else if (write) {
        if (s.modified) {
            out.cls = AccessClass::store_hitm;
        } else {
            // Clean elsewhere (E at one CPU or S at several): one invalidation per other holder.
            out.cls = AccessClass::store_shared;
            out.invalidations = s.holders.count() - (s.holders.test(cpu) ? 1u : 0u);
        }
        attribute(out, line, lo, hi);
    } else if (s.modified) {
        out.cls = AccessClass::load_hitm;
        attribute(out, line, lo, hi);
    } else {
        out.cls = AccessClass::clean_forward;
    }

    if (write) {
        // A new ownership epoch: only this write's bytes are dirty now.
        s.holders.assign_only(cpu);
        s.owner = cpu;
        s.modified = true;
        auto* bytes = byte_writer_.data() + std::size_t{line} * line_size_;
        std::fill(bytes, bytes + line_size_, Outcome::kNoWriter);
        note_write(line, lo, hi, tag);
    } else if (out.cls == AccessClass::cold) {
        s.holders.assign_only(cpu);
        s.owner = cpu; // Exclusive
        s.modified = false;
    } else {
        // The data moves to a second cache: everyone ends Shared (M writes back on the way).
        s.holders.set(cpu);
        s.owner = kNoOwner;
        s.modified = false;
    }
    return out;
}

void CoherenceModel::attribute(Outcome& out, std::uint32_t line, std::uint16_t lo,
                               std::uint16_t hi) const {
    const auto* bytes = byte_writer_.data() + std::size_t{line} * line_size_;
    for (std::uint16_t b = lo; b < hi; ++b) {
        if (bytes[b] != Outcome::kNoWriter) {
            out.writer = bytes[b];
            out.true_sharing = true;
            return;
        }
    }
    out.writer = lines_[line].last_writer;
}

void CoherenceModel::note_write(std::uint32_t line, std::uint16_t lo, std::uint16_t hi,
                                std::uint32_t tag) {
    auto* bytes = byte_writer_.data() + std::size_t{line} * line_size_;
    std::fill(bytes + lo, bytes + hi, tag);
    lines_[line].last_writer = tag;
}

} // namespace hitmap::c2c
