#pragma once
// When, where and by which hitmap a report was made, for its header: a report read a month
// later, or beside one from another machine, names the machine, its kernel and the build.
#include <string>

namespace hitmap::analysis {

struct ReportOrigin {
    std::string made;   // "2026-12-07T08:10:00.000Z" (UTC)
    std::string host;   // uname nodename
    std::string kernel; // uname release
    std::string hitmap; // "hitmap 0.1.0 (commit 7cc2407abcd1)"
};

// Now, this machine, this build.
ReportOrigin this_origin();

} // namespace hitmap::analysis
