// The store may use the coherence model: its headers are on the store's include paths.
#include "collector/c2c/replay_result.hpp"
#include "collector/store/database.hpp"
