// Analysis reads the store; the store must not reach up into analysis.
#include "collector/analysis/report_data.hpp"
#include "collector/store/database.hpp"
