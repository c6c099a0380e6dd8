#include "schemas/migrations.hpp"

#include "hitmap_schemas_embedded.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <string>
#include <vector>

namespace hitmap::schemas {
namespace {

// CMake only globs NNNN_*.sql, so a name that does not parse is a build-system bug.
Migration parse(const embedded::EmbeddedFile& file) {
    constexpr std::string_view suffix = ".sql";
    const std::string_view name = file.name;
    int version = 0;
    const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), version);
    const auto digits = static_cast<std::size_t>(end - name.data());
    if (ec != std::errc{} || digits != 4 || name.size() <= digits + 1 + suffix.size() ||
        name[digits] != '_' || !name.ends_with(suffix))
        throw std::logic_error("migration file name is not NNNN_<name>.sql: " + std::string(name));
    return {version, name.substr(digits + 1, name.size() - digits - 1 - suffix.size()),
            file.content};
}

std::vector<Migration> parse_all() {
    std::vector<Migration> all;
    for (const auto& file : embedded::embedded_files())
        all.push_back(parse(file));
    std::ranges::sort(all, {}, &Migration::version);
    return all;
}

} // namespace

std::span<const Migration> migrations() {
    static const std::vector<Migration> all = parse_all();
    return all;
}

} // namespace hitmap::schemas
