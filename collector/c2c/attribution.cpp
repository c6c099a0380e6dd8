#include "collector/c2c/attribution.hpp"

#include "collector/c2c/errors.hpp"

#include <fmt/format.h>

namespace hitmap::c2c {

std::uint32_t Attribution::add_part(const AccessPart& part) {
    parts_.push_back(part);
    cells_.resize(parts_.size() * stride_);
    return static_cast<std::uint32_t>(parts_.size() - 1);
}

CpuIndex Attribution::add_cpu(std::uint32_t id) {
    if (cpu_ids_.size() == kMaxCpus)
        throw ReplayError(fmt::format("more than {} distinct model CPUs (the first one over is {})",
                                      kMaxCpus, id));
    const auto dense = static_cast<CpuIndex>(cpu_ids_.size());
    cpu_ids_.push_back(id);
    if (dense == stride_) {
        std::vector<Cell> wider(parts_.size() * stride_ * 2);
        for (std::size_t p = 0; p < parts_.size(); ++p)
            std::copy_n(cells_.begin() + p * stride_, stride_, wider.begin() + p * stride_ * 2);
        stride_ *= 2;
        cells_ = std::move(wider);
    }
    return dense;
}

void Attribution::add_pair(std::uint32_t accessor, const Outcome& outcome) {
    PairCounts& c = pairs_[{accessor, outcome.writer, outcome.true_sharing}];
    switch (outcome.cls) {
    case AccessClass::load_hitm:
        ++c.load_hitm;
        break;
    case AccessClass::store_hitm:
        ++c.store_hitm;
        break;
    case AccessClass::store_shared:
        ++c.store_shared;
        c.invalidations += outcome.invalidations;
        break;
    default:
        break; // only ownership-carrying transfers are paired
    }
}

ReplayResult Attribution::build(const AddressMap& map, double l1_hit_cycles, std::uint64_t records,
                                ModelCpus model_cpus) const {
    ReplayResult result;
    result.line_size = map.line_size();
    result.model_cpus = model_cpus;
    result.records = records;

    const auto line_key = [&](std::uint32_t dense) {
        const LineInfo& l = map.line(dense);
        return LineKey{l.object, l.index, l.address};
    };
    const auto counts_of = [&](const Cell& c) {
        ClassCounts k;
        const auto of = [&](AccessClass cls) {
            const auto i = static_cast<std::size_t>(cls) * 2;
            return c.count[i] + c.count[i + 1];
        };
        k.l1_hit = of(AccessClass::l1_hit);
        k.load_hitm = of(AccessClass::load_hitm);
        k.store_hitm = of(AccessClass::store_hitm);
        k.clean_forward = of(AccessClass::clean_forward);
        k.store_shared = of(AccessClass::store_shared);
        k.cold = of(AccessClass::cold);
        k.invalidations = c.invalidations;
        for (std::size_t i = 0; i < c.count.size(); i += 2) {
            k.loads += c.count[i];
            k.stores += c.count[i + 1];
        }
        k.stall_cycles = c.stall_cycles + static_cast<double>(k.l1_hit) * l1_hit_cycles;
        return k;
    };

    // Dense lines are numbered in (object id, line index) order, so ordered maps keyed by the
    // dense index come out sorted by LineKey.
    std::map<std::uint32_t, ClassCounts> lines;
    std::map<std::tuple<std::uint32_t, std::uint16_t, engine::FieldId, std::uint16_t>, ClassCounts>
        fields;
    std::map<std::pair<std::uint32_t, std::uint32_t>, ClassCounts> cpus;
    for (std::size_t p = 0; p < parts_.size(); ++p) {
        const AccessPart& part = parts_[p];
        for (std::size_t cpu = 0; cpu < cpu_ids_.size(); ++cpu) {
            const Cell& cell = cells_[p * stride_ + cpu];
            const ClassCounts k = counts_of(cell);
            if (k.accesses() == 0)
                continue;
            lines[part.span.line] += k;
            fields[{part.span.line, part.span.lo, part.field,
                    static_cast<std::uint16_t>(part.span.hi - part.span.lo)}] += k;
            cpus[{part.span.line, cpu_ids_[cpu]}] += k;
        }
    }

    for (const auto& [line, k] : lines) {
        result.lines.push_back(LineStats{line_key(line), k});
        result.totals += k;
    }
    for (const auto& [key, k] : fields) {
        const auto& [line, offset, field, size] = key;
        const LineKey lk = line_key(line);
        result.fields.push_back(
            FieldStats{lk, offset, size, field, map.field_name(lk.object, field), k});
    }
    for (const auto& [key, k] : cpus)
        result.cpus.push_back(CpuStats{line_key(key.first), key.second, k});

    // Several parts can be the same field on one line (accesses of different widths), so pair
    // rows are re-keyed by field before they are emitted. Writer -1 sorts "never written" first.
    std::map<std::tuple<std::uint32_t, engine::FieldId, int, bool>, PairCounts> pairs;
    for (const auto& [key, counts] : pairs_) {
        const auto& [accessor, writer, true_sharing] = key;
        const AccessPart& a = parts_[accessor];
        const int w = writer == Outcome::kNoWriter ? -1 : parts_[writer].field;
        pairs[{a.span.line, a.field, w, true_sharing}] += counts;
    }
    for (const auto& [key, counts] : pairs) {
        const auto& [line, accessor, writer, true_sharing] = key;
        const LineKey lk = line_key(line);
        PairStats row{lk,           accessor, map.field_name(lk.object, accessor), std::nullopt, {},
                      true_sharing, counts};
        if (writer >= 0) {
            row.writer = static_cast<engine::FieldId>(writer);
            row.writer_name = map.field_name(lk.object, *row.writer);
        }
        result.pairs.push_back(std::move(row));
    }
    return result;
}

} // namespace hitmap::c2c
