#pragma once
// Writing an exported report where -o names it. A regular file (or nothing yet) is replaced
// whole: written under a temporary name in its folder, flushed, then renamed over it, so a
// failed write (full disk, no permission) leaves an existing report as it was and no partial
// file behind. A symbolic link is followed and its target written the same way. A FIFO or a
// character device (/dev/stdout, a terminal) is written into, as a shell's `>` would, never
// replaced; "-" is standard output; anything else (a folder, a block device, a socket) is
// refused.
#include "collector/support/replacing_file.hpp"

#include <filesystem>
#include <string_view>

namespace hitmap::report {

using ReportWriteError = support::FileWriteError;

void write_report_file(const std::filesystem::path& path, std::string_view content);

} // namespace hitmap::report
