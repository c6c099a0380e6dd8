#include "collector/c2c/sample_attribution.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace hitmap::c2c {

namespace {

struct Extent {
    std::uint64_t begin = 0, end = 0; // [begin, end) in the process's address space
    const engine::ObjectInfo* object = nullptr;
};

std::vector<Extent> extents(const std::vector<engine::ObjectInfo>& objects,
                            const std::vector<std::uint64_t>& addresses) {
    std::vector<Extent> out;
    for (const engine::ObjectInfo& o : objects)
        if (o.id < addresses.size() && addresses[o.id] != 0)
            out.push_back({addresses[o.id], addresses[o.id] + o.layout.size, &o});
    std::sort(out.begin(), out.end(),
              [](const Extent& a, const Extent& b) { return a.begin < b.begin; });
    return out;
}

const Extent* extent_of(const std::vector<Extent>& sorted, std::uint64_t address) {
    auto it = std::upper_bound(sorted.begin(), sorted.end(), address,
                               [](std::uint64_t a, const Extent& e) { return a < e.begin; });
    if (it == sorted.begin())
        return nullptr;
    --it;
    return address < it->end ? &*it : nullptr;
}

} // namespace

SampleAttribution attribute_samples(std::span<const AddressedSample> samples,
                                    const std::vector<engine::ObjectInfo>& objects,
                                    const std::vector<std::uint64_t>& addresses,
                                    std::uint32_t line_size) {
    const std::vector<Extent> sorted = extents(objects, addresses);
    const std::uint64_t line_mask = ~std::uint64_t{line_size - 1};
    using FieldKey = std::tuple<LineKey, std::uint32_t, std::uint32_t, engine::FieldId>;
    std::map<LineKey, ClassCounts> lines;
    std::map<FieldKey, std::pair<std::string, ClassCounts>> fields; // (line, offset, size, field)
    std::map<std::pair<LineKey, std::uint32_t>, ClassCounts> cpus;

    SampleAttribution out;
    ReplayResult& r = out.result;
    r.line_size = line_size;
    r.model_cpus = ModelCpus::recorded; // the CPU the sample was taken on
    for (const AddressedSample& s : samples) {
        const Extent* e = extent_of(sorted, s.address);
        if (!e) {
            ++out.unmapped;
            continue;
        }
        const std::uint64_t line = s.address & line_mask;
        const LineKey key{e->object->id,
                          static_cast<std::uint32_t>((line - (e->begin & line_mask)) / line_size),
                          line};
        ++r.records;
        r.totals += s.counts;
        lines[key] += s.counts;
        cpus[{key, s.cpu}] += s.counts;
        // The field whose bytes the address falls in, cut to this line like the replay's rows.
        const engine::Layout& layout = e->object->layout;
        const std::uint64_t offset = s.address - e->begin;
        for (engine::FieldId f = 0; f < layout.placement.size(); ++f) {
            if (!layout.has(f) || offset < layout.at(f).offset ||
                offset >= layout.at(f).offset + layout.at(f).size)
                continue;
            const std::uint64_t lo = std::max(e->begin + layout.at(f).offset, line);
            const std::uint64_t hi =
                std::min(e->begin + layout.at(f).offset + layout.at(f).size, line + line_size);
            auto& [name, counts] = fields[{key, static_cast<std::uint32_t>(lo - line),
                                           static_cast<std::uint32_t>(hi - lo), f}];
            name = layout.field_name(f);
            counts += s.counts;
            break;
        }
    }
    for (const auto& [key, counts] : lines)
        r.lines.push_back({key, counts});
    for (const auto& [key, named] : fields) {
        const auto& [line, offset, size, field] = key;
        r.fields.push_back({line, offset, size, field, named.first, named.second});
    }
    // FieldStats sort by (line, offset, field, size); the map's (line, offset, size, field)
    // differs only for two fields at one offset, which one layout cannot place.
    for (const auto& [key, counts] : cpus)
        r.cpus.push_back({key.first, key.second, counts});
    return out;
}

} // namespace hitmap::c2c
