#pragma once
// How a run's fields are used, from any source (a replayed trace, PMU samples, a perf c2c
// capture): each field's reads and writes and what that makes it (read-only, read-mostly,
// read-write, write-mostly, write-only), and the access affinity: which written fields share a
// line or the code that writes them, and which read-only fields sit on a line others write —
// the fields a layout should keep apart. Counts are the source's own: accesses of a trace,
// samples of PMU sampling or of perf.
#include "collector/analysis/line_drilldown.hpp"
#include "collector/store/c2c_tables.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::analysis {

enum class FieldUse { read_only, read_mostly, read_write, write_mostly, write_only };
std::string_view to_string(FieldUse use); // "read-only", "read-mostly", ...

// Below this share of its accesses, a field's writes (reads) are few enough to call it
// read-mostly (write-mostly). Declared, not fitted: one write in ten accesses already costs a
// line's other readers a transfer each time.
inline constexpr double kMostlyShare = 0.1;

struct FieldAccess {
    std::string object, field;
    std::uint32_t line = 0;   // the index in its object of the first line it is on
    std::uint32_t offset = 0; // its first byte in that line
    std::uint64_t reads = 0, writes = 0, hitm = 0;
    FieldUse use = FieldUse::read_only;
};

// Two fields of one object that are both written.
struct WrittenTogether {
    std::string object, first, second;
    bool same_line = false;
    std::vector<std::string> code; // symbols that write both (a capture's code rows)
};

// A read-only field on a line another field of its object writes: each write costs its readers
// a transfer.
struct ReadBesideWrite {
    std::string object, field;
    std::uint32_t line = 0;
    std::vector<std::string> writers; // the written fields of the line
};

struct FieldAccessReport {
    std::string counted_in;          // "accesses (replayed trace)", "samples"
    std::vector<FieldAccess> fields; // by object, line, offset
    std::vector<WrittenTogether> written_together;
    std::vector<ReadBesideWrite> read_beside_write;
};

FieldAccessReport field_access(const store::C2cData& data,
                               const std::map<std::uint64_t, LineDrilldown>& drilldown);

} // namespace hitmap::analysis
