#include "collector/cli/layout_spec.hpp"

#include "collector/analysis/run_detail.hpp"
#include "collector/cli/cli_options.hpp"
#include "collector/cli/commands.hpp"
#include "collector/report/run_summary.hpp"
#include "collector/store/layout_table.hpp"
#include "engine/layout/composition.hpp"
#include "engine/layout/layout_error.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <optional>
#include <string_view>

namespace hitmap::cli {

namespace {

constexpr std::string_view kRun = "run:";
constexpr std::string_view kHash = "hash:";
// Fewer digits would name most layouts of a database.
constexpr std::size_t kMinHashDigits = 4;

struct Assignment {
    std::string struct_name, value;
};

Assignment split(const std::string& assignment) {
    const std::size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == assignment.size())
        throw UsageError(fmt::format("layout '{}' is not STRUCT=LAYOUT", assignment));
    return {assignment.substr(0, eq), assignment.substr(eq + 1)};
}

// "#A1B2" as `show` prints it, or "a1b2": lower-case hex digits.
std::string hash_prefix(std::string_view text) {
    std::string prefix(text.starts_with('#') ? text.substr(1) : text);
    std::transform(prefix.begin(), prefix.end(), prefix.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (prefix.size() < kMinHashDigits || prefix.size() > store::kLayoutHashDigits ||
        prefix.find_first_not_of("0123456789abcdef") != std::string::npos)
        throw UsageError(fmt::format("'{}' is not a layout hash: {} to {} hex digits of one "
                                     "`show` prints after '#'",
                                     text, kMinHashDigits, store::kLayoutHashDigits));
    return prefix;
}

std::string labels(const std::vector<store::LayoutRow>& rows) {
    std::string out;
    for (const store::LayoutRow& row : rows)
        out += (out.empty() ? "" : ", ") + store::layout_label(row);
    return out;
}

void add_distinct(std::vector<store::LayoutRow>& rows, const store::LayoutRow& row) {
    if (std::find(rows.begin(), rows.end(), row) == rows.end())
        rows.push_back(row);
}

store::LayoutRow row_of_hash(store::Database& db, std::string_view text) {
    const std::string prefix = hash_prefix(text);
    const auto rows = store::layouts_with_hash_prefix(db, prefix);
    if (rows.empty())
        throw UsageError(
            fmt::format("no layout in {} has a hash starting with {}", db.path().string(), prefix));
    if (rows.size() > 1)
        throw UsageError(fmt::format("{} layouts in {} have a hash starting with {}: {}; give "
                                     "more digits",
                                     rows.size(), db.path().string(), prefix, labels(rows)));
    return rows.front();
}

struct RunUse {
    store::LayoutRow row;
    std::string origin; // "run 12 of x.db: built-in"
};

RunUse row_of_run(store::Database& db, const std::string& struct_name, std::string_view id_text) {
    const auto id = static_cast<std::int64_t>(
        parse_count(std::string(id_text), "run id", 1, std::numeric_limits<std::int64_t>::max()));
    const store::RunRecord run = require_run(db, id);
    const auto used = store::run_layouts(db, id);
    std::vector<store::LayoutRow> all, of_struct;
    for (const store::RunLayout& u : used) {
        add_distinct(all, u.layout);
        if (u.layout.struct_name == struct_name)
            add_distinct(of_struct, u.layout);
    }
    if (all.empty())
        throw UsageError(fmt::format("run {} recorded no layouts: it has no cacheline data ({})",
                                     id, analysis::no_c2c_reason(run)));
    if (of_struct.empty())
        throw UsageError(fmt::format("run {} recorded no {} objects (its layouts: {})", id,
                                     struct_name, labels(all)));
    if (of_struct.size() > 1)
        throw UsageError(fmt::format("run {} recorded {} objects under {} layouts: {}; name one "
                                     "as {}=hash:HASH",
                                     id, struct_name, of_struct.size(), labels(of_struct),
                                     struct_name));
    std::string origins;
    for (const store::RunLayout& u : used)
        if (u.layout == of_struct.front())
            origins += (origins.empty() ? "" : "; ") + u.origin.value_or("origin unknown");
    return {of_struct.front(), fmt::format("run {} of {}: {}", id, db.path().string(), origins)};
}

RunUse stored_row(store::Database& db, const Assignment& a) {
    if (a.value.starts_with(kRun))
        return row_of_run(db, a.struct_name, std::string_view(a.value).substr(kRun.size()));
    const store::LayoutRow row = row_of_hash(db, std::string_view(a.value).substr(kHash.size()));
    if (row.struct_name != a.struct_name)
        throw UsageError(fmt::format("layout {} is of struct {}, not {}", store::layout_label(row),
                                     row.struct_name, a.struct_name));
    return {row, fmt::format("layout #{} of {}", row.hash, db.path().string())};
}

} // namespace

bool names_stored_layout(const std::string& assignment) {
    const std::size_t eq = assignment.find('=');
    if (eq == std::string::npos)
        return false;
    const std::string_view value = std::string_view(assignment).substr(eq + 1);
    return value.starts_with(kRun) || value.starts_with(kHash);
}

engine::Layout stored_layout(store::Database& db, const std::string& assignment) {
    const RunUse use = stored_row(db, split(assignment));
    engine::Layout layout = store::read_layout(db, use.row.id);
    layout.origin = use.origin;
    return layout;
}

std::vector<std::int64_t> selected_layouts(store::Database& db, const std::string& spec) {
    if (spec.find('=') == std::string::npos)
        return {row_of_hash(db, spec).id};
    if (names_stored_layout(spec))
        return {stored_row(db, split(spec)).row.id};
    const Assignment a = split(spec);
    std::vector<std::int64_t> ids;
    for (const store::LayoutRow& row : store::layouts_named(db, a.struct_name, a.value))
        ids.push_back(row.id);
    std::optional<engine::Layout> wanted;
    try {
        wanted = parse_layout(spec);
    } catch (const std::exception&) {
        // A name this build cannot resolve may still be a stored version's: an opt-*.json since
        // deleted, another machine's btf:RELEASE, a plugin's layout.
        if (ids.empty())
            throw;
        return ids;
    }
    // A stored layout uses `wanted` when laying its struct out under it, as `predict --layout`
    // would, changes nothing: `wanted` itself, or a mem_cgroup around a page_counter of its shape.
    const std::map<std::string, engine::Layout> overrides{{a.struct_name, *wanted}};
    for (const store::LayoutRow& row : store::stored_layouts(db)) {
        const engine::Layout stored = store::read_layout(db, row.id);
        try {
            const auto under = engine::layout_under(stored, overrides);
            if (under && store::layout_signature(*under) == store::layout_signature(stored) &&
                std::find(ids.begin(), ids.end(), row.id) == ids.end())
                ids.push_back(row.id);
        } catch (const engine::LayoutError&) {
            // A user's mem_cgroup has no shape to place a page_counter in: not this one's.
        }
    }
    return ids;
}

} // namespace hitmap::cli
