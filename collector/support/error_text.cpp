#include "collector/support/error_text.hpp"

#include <new>

namespace hitmap::support {

std::string error_text(const std::exception& e) {
    if (dynamic_cast<const std::bad_alloc*>(&e))
        return "out of memory (a virtual-memory limit such as ulimit -v, or the machine's "
               "memory, is too small for this)";
    return e.what();
}

} // namespace hitmap::support
