#pragma once
// Writing an exported report: under a temporary name in the target's folder, flushed, then
// renamed over the target, so a failed write (full disk, no permission) leaves an existing
// report as it was and no partial file behind.
#include <filesystem>
#include <stdexcept>
#include <string_view>

namespace hitmap::report {

// One line naming the file and the system's reason ("cannot write r.html: No space left on
// device").
class ReportWriteError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

void write_report_file(const std::filesystem::path& path, std::string_view content);

} // namespace hitmap::report
