#pragma once
// A parsed perf c2c report stored as one imported run: its record (workload
// "import:perf-c2c", the file's name as the variant, how the text was read as the parameters),
// its metrics and its cacheline tables, in one transaction. What `import perf-c2c` does once
// the report is parsed and mapped; tests store their imports the same way without a process.
#include "collector/perfc2c/imported_run.hpp"
#include "collector/perfc2c/parsed_report.hpp"
#include "collector/store/database.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace hitmap::perfc2c {

struct StoredC2cImport {
    std::int64_t run_id = 0;
    std::string path;    // the file's absolute path, as the run's parameters hold it
    std::string variant; // the file's name
    std::string what;    // "perf c2c report (current, AMD)": how the text was read
};

// Moves `imported`'s tables, metrics and code into the run; its notes stay for the caller.
StoredC2cImport store_c2c_import(store::Database& db, const std::string& file,
                                 const C2cReport& parsed, const std::vector<PlacedLayout>& placed,
                                 ImportedC2c& imported);

} // namespace hitmap::perfc2c
