#pragma once
// Two runs side by side, as the compare view and the reports show them: which object to look
// at, its fields' HITM before and after, the throughput change, and the run a run is compared
// with by default.
#include "collector/store/c2c_tables.hpp"
#include "collector/store/records.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hitmap::analysis {

// The object whose line has the most HITM in `data` (perf c2c's first row); the first object
// when no line has any; null when the data names no object.
const engine::ObjectInfo* hottest_object(const store::C2cData& data);
const engine::ObjectInfo* object_named(const store::C2cData& data, std::string_view name);

// Field name -> HITM per 1,000 traced operations over every line of `object`, or for a capture
// without operations its share of the captured HITMs in percent (analysis::rate_basis). A run with
// neither has no rates (an empty map), not zeros.
std::map<std::string, double> field_hitm_rates(const store::C2cData& data, engine::ObjectId object);

struct FieldPair {
    std::string field;
    std::string label; // short_field_names among the object's fields, as its strip box says
    double before = 0, after = 0; // field_hitm_rates(); 0 where a side has none
};

// The fields of the object named `object` with HITM on either side, the hottest first, at most
// `limit` of them (the objects are matched by name: ids differ between runs). None when one side
// is a capture counted in shares and the other a run counted per operation.
std::vector<FieldPair> field_pairs(const store::C2cData& before, const store::C2cData& after,
                                   const std::string& object, std::size_t limit);

// after / before - 1; nullopt when either is unknown or before is not positive.
std::optional<double> relative_change(std::optional<double> before, std::optional<double> after);

// The run `run` is compared with by default: same workload, threads, source and cacheline source
// (a default pair never mixes sources), complete, not a prediction, another variant. The newest
// run of the other side of the workload's story comes first (its "after" for its "before" and
// back), then one with another struct layout (a "layout." parameter), since before/after
// padding is the question the comparison exists for.
std::optional<std::int64_t> default_partner(const std::vector<store::RunRecord>& runs,
                                            std::int64_t run);

} // namespace hitmap::analysis
