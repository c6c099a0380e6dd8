#include "collector/analysis/field_names.hpp"

namespace hitmap::analysis {

namespace {

// The suffix of `path` holding its last `parts` components ("memory.usage", 1 -> "usage").
std::string_view last_parts(std::string_view path, std::size_t parts) {
    std::size_t start = path.size();
    for (; parts > 0; --parts) {
        const std::size_t dot = start == 0 ? std::string_view::npos : path.rfind('.', start - 1);
        if (dot == std::string_view::npos)
            return path;
        start = dot;
    }
    return path.substr(start + 1);
}

// Whether `name` is `path` itself or a suffix of it starting after a dot.
bool ends_with_part(std::string_view path, std::string_view name) {
    return path == name || (path.size() > name.size() && path.ends_with(name) &&
                            path[path.size() - name.size() - 1] == '.');
}

} // namespace

std::vector<std::string> short_field_names(const std::vector<std::string_view>& paths) {
    std::vector<std::string> names;
    names.reserve(paths.size());
    for (std::size_t i = 0; i < paths.size(); ++i) {
        const auto shared = [&](std::string_view candidate) {
            for (std::size_t j = 0; j < paths.size(); ++j)
                if (j != i && ends_with_part(paths[j], candidate))
                    return true;
            return false;
        };
        std::string_view name = last_parts(paths[i], 1);
        for (std::size_t parts = 2; name.size() < paths[i].size() && shared(name); ++parts)
            name = last_parts(paths[i], parts);
        names.emplace_back(name);
    }
    return names;
}

} // namespace hitmap::analysis
