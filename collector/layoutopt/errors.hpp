#pragma once
// One exception type per failure kind, each carrying a decoded one-line message, so the CLI
// can print e.what() as is.
#include <stdexcept>

namespace hitmap::layoutopt {

// An optimization that cannot be done as asked: the run holds no copy of the struct, a field
// named in --keep-order-of is not in it, the fields do not fit in --max-size, a struct whose
// field names are not C identifiers asked for as C.
class OptimizeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace hitmap::layoutopt
