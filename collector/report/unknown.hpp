#pragma once
// Unknown is not zero, under the report layer's names (collector/support/unknown.hpp).
#include "collector/support/unknown.hpp"

namespace hitmap::report {

using support::json_or_null;
using support::text_or_unknown;
using support::unknown_text;

} // namespace hitmap::report
