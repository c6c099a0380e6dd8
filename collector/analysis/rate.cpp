#include "collector/analysis/rate.hpp"

#include "collector/support/unknown.hpp"

namespace hitmap::analysis {

bool is_share(const std::optional<RateBasis>& basis) {
    return basis && basis->kind == RateBasis::Kind::share_of_hitm;
}

std::optional<RateBasis> rate_basis(const store::C2cData& data) {
    if (const auto ops = data.traced_ops(); ops && *ops > 0)
        return RateBasis{RateBasis::Kind::per_thousand_ops, *ops};
    if (const auto hitm = data.trace.capture_hitm; hitm && *hitm > 0)
        return RateBasis{RateBasis::Kind::share_of_hitm, *hitm};
    return std::nullopt;
}

std::optional<double> rate(std::optional<std::uint64_t> count,
                           const std::optional<RateBasis>& basis) {
    if (!count || !basis || basis->denominator == 0)
        return std::nullopt;
    const double scale = is_share(basis) ? 100.0 : 1000.0;
    return scale * static_cast<double>(*count) / static_cast<double>(basis->denominator);
}

std::optional<double> hitm_share(std::optional<std::uint64_t> hitm, const store::C2cData& data) {
    const auto total = data.trace.capture_hitm;
    if (!total || *total == 0)
        return std::nullopt;
    return rate(hitm, RateBasis{RateBasis::Kind::share_of_hitm, *total});
}

std::string rate_text(std::optional<std::uint64_t> count, const std::optional<RateBasis>& basis) {
    return is_share(basis) ? support::text_or_unknown(rate(count, basis), "{:.1f}%")
                           : support::text_or_unknown(rate(count, basis), "{:.2f}");
}

std::string rate_phrase(std::optional<std::uint64_t> count, const std::optional<RateBasis>& basis) {
    if (!basis)
        return std::string(support::unknown_text);
    return is_share(basis) ? rate_text(count, basis) + " of captured HITM"
                           : rate_text(count, basis) + "/1k op";
}

std::string rate_suffix(const std::optional<RateBasis>& basis) {
    return is_share(basis) ? " %HITM" : "/1k op";
}

std::string rate_unit(const std::optional<RateBasis>& basis) {
    return is_share(basis) ? "% of captured HITM" : "per 1k traced operations";
}

std::string hitm_axis_title(const std::optional<RateBasis>& basis) {
    return is_share(basis) ? "% of captured HITM" : "HITM/1k ops";
}

} // namespace hitmap::analysis
