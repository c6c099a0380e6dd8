#include "collector/run/trace_cleanup.hpp"

#include "collector/store/c2c_tables.hpp"
#include "collector/store/database.hpp"
#include "collector/trace/trace_file.hpp"

#include <charconv>
#include <optional>
#include <string_view>
#include <system_error>

namespace hitmap::collector {

namespace {

// N of "run-N.<anything>", the names trace files and their partial copies have.
std::optional<std::int64_t> run_of(std::string_view name) {
    constexpr std::string_view prefix = "run-";
    if (!name.starts_with(prefix))
        return std::nullopt;
    name.remove_prefix(prefix.size());
    std::int64_t id = 0;
    const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), id);
    if (ec != std::errc() || end == name.data() || end == name.data() + name.size() || *end != '.')
        return std::nullopt;
    return id;
}

} // namespace

std::vector<std::filesystem::path> remove_orphan_traces(store::Database& db) {
    const std::filesystem::path folder = trace_path_for(db.path(), 0).parent_path();
    std::vector<std::filesystem::path> removed;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
        const std::string name = entry.path().filename().string();
        const auto id = run_of(name);
        if (!id || !entry.is_regular_file(ec))
            continue;
        const auto run = db.run(*id);
        if (run && run->status == store::RunStatus::running)
            continue; // its writer may still be storing it
        if (run && trace_path_for(db.path(), *id) == entry.path() &&
            store::has_stored_trace(db, *id))
            continue;
        if (std::filesystem::remove(entry.path(), ec))
            removed.push_back(entry.path());
    }
    return removed;
}

void remove_trace_of(const std::filesystem::path& db_path, std::int64_t run_id) {
    std::error_code ec;
    std::filesystem::remove(trace_path_for(db_path, run_id), ec);
}

} // namespace hitmap::collector
