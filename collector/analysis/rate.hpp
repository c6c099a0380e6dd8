#pragma once
// How a run's counts are put in proportion. A run that counted its operations shows a count per
// 1,000 of them; a capture (an imported perf c2c report) has no operation count, so its counts
// show as shares of every HITM it captured, as perf c2c's own percentages do. Both are labelled
// with what they are, and a run with neither shows its raw counts alone.
#include "collector/store/c2c_tables.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace hitmap::analysis {

struct RateBasis {
    enum class Kind {
        per_thousand_ops, // store::C2cData::traced_ops()
        share_of_hitm,    // store::TraceInfo::capture_hitm, in percent
    };
    Kind kind = Kind::per_thousand_ops;
    std::uint64_t denominator = 0; // above 0

    bool operator==(const RateBasis&) const = default;
};

// Operations when the run counted them, else the capture's HITMs; nullopt when neither is
// known or both are 0.
std::optional<RateBasis> rate_basis(const store::C2cData& data);

// Whether counts are put in proportion as shares of a capture's HITMs.
bool is_share(const std::optional<RateBasis>& basis);
// 1,000 × count / operations, or 100 × count / capture HITMs; nullopt when either is unknown.
std::optional<double> rate(std::optional<std::uint64_t> count,
                           const std::optional<RateBasis>& basis);
// 100 × hitm / the capture's HITMs, whether or not the run also counted operations (perf c2c
// around a run of ours); nullopt without a capture total.
std::optional<double> hitm_share(std::optional<std::uint64_t> hitm, const store::C2cData& data);
// "0.42" (two decimals) or "12.3%" (one); "–" when unknown.
std::string rate_text(std::optional<std::uint64_t> count, const std::optional<RateBasis>& basis);
// The rate with its unit, as labels and tooltips read: "0.42/1k op", "25.0% of captured HITM";
// "–/1k op" when the count is unknown, "–" when the run has no basis.
std::string rate_phrase(std::optional<std::uint64_t> count, const std::optional<RateBasis>& basis);
// What a rate column's title ends with: "/1k op", " %HITM"; "/1k op" without a basis, so that
// a run with neither shows the column it would have, with "–" in it.
std::string rate_suffix(const std::optional<RateBasis>& basis);
// The unit in words, for titles and JSON: "per 1k traced operations", "% of captured HITM".
std::string rate_unit(const std::optional<RateBasis>& basis);
// A HITM axis's title, short enough for a chart's height: "HITM/1k ops", "% of captured HITM".
std::string hitm_axis_title(const std::optional<RateBasis>& basis);

} // namespace hitmap::analysis
