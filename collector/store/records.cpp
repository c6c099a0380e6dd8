#include "collector/store/records.hpp"

#include "collector/support/enum_names.hpp"

#include <array>
#include <stdexcept>
#include <utility>

namespace hitmap::store {
namespace {

constexpr std::array<support::EnumName<RunStatus>, 5> status_names{{
    {RunStatus::running, "running"},
    {RunStatus::complete, "complete"},
    {RunStatus::failed, "failed"},
    {RunStatus::cancelled, "cancelled"},
    {RunStatus::abandoned, "abandoned"},
}};

constexpr std::array<support::EnumName<Source>, 6> source_names{{
    {Source::measured, "measured"},
    {Source::traced, "traced"},
    {Source::replayed, "replayed"},
    {Source::simulated, "simulated"},
    {Source::predicted, "predicted"},
    {Source::imported, "imported"},
}};

constexpr std::array<support::EnumName<C2cSource>, 6> c2c_source_names{{
    {C2cSource::software, "software"},
    {C2cSource::hardware, "hardware"},
    {C2cSource::perf, "perf"},
    {C2cSource::perf_c2c, "perf-c2c"},
    {C2cSource::simulated, "simulated"},
    {C2cSource::predicted, "predicted"},
}};

// The store's names are its columns' values: a value without one, or a stored text that names
// none, is a defect or a newer database, never a default.
template <class E, std::size_t N>
std::string_view stored_name(const std::array<support::EnumName<E>, N>& names, E value) {
    const std::string_view name = support::name_of(names, value);
    if (name.empty())
        throw std::invalid_argument("enum value without a name");
    return name;
}

template <class E, std::size_t N>
E stored_value(const std::array<support::EnumName<E>, N>& names, std::string_view text,
               const char* what) {
    if (const auto value = support::value_named(names, text))
        return *value;
    throw std::invalid_argument("unknown " + std::string(what) + " '" + std::string(text) + "'");
}

} // namespace

std::string_view to_string(RunStatus status) {
    return stored_name(status_names, status);
}
RunStatus parse_run_status(std::string_view text) {
    return stored_value(status_names, text, "run status");
}
std::string_view to_string(Source source) {
    return stored_name(source_names, source);
}
Source parse_source(std::string_view text) {
    return stored_value(source_names, text, "source");
}
std::string_view to_string(C2cSource source) {
    return stored_name(c2c_source_names, source);
}
C2cSource parse_c2c_source(std::string_view text) {
    return stored_value(c2c_source_names, text, "c2c source");
}
std::optional<std::string> c2c_source_text(const std::optional<C2cSource>& source) {
    return source ? std::optional(std::string(to_string(*source))) : std::nullopt;
}

} // namespace hitmap::store
