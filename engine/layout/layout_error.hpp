#pragma once
#include <stdexcept>

namespace hitmap::engine {

// A layout that cannot be used: unknown/missing/overlapping fields, bad JSON, unknown name.
class LayoutError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace hitmap::engine
