#pragma once
// One exception type per failure kind, each carrying a decoded one-line message, so the CLI
// can print e.what() as is.
#include <stdexcept>

namespace hitmap::c2c {

// A trace or replay configuration that cannot be replayed: unknown object, a field absent
// from the replay layout, an access outside its object, an unsupported line size.
class ReplayError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A cost table file that cannot be used: unreadable, bad JSON, unknown key, bad value.
class CostTableError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace hitmap::c2c
