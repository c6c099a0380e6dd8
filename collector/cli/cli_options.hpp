#pragma once
// Parsing of the command-line values shared by several subcommands. Each function throws
// UsageError with a one-line message naming the bad value.
#include "collector/run/progress.hpp"
#include "engine/layout/layout.hpp"
#include "engine/probe/trace_buffer.hpp"

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace hitmap::cli {

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// "1s", "500ms", "2.5s", "1m", "100us".
std::chrono::nanoseconds parse_duration(const std::string& text);
// "v6.0,v6.1" -> {"v6.0", "v6.1"}; empty items are errors.
std::vector<std::string> split_list(const std::string& text, const char* what);
// "1,2,4" -> {1, 2, 4}; each at least 1.
std::vector<unsigned> parse_thread_counts(const std::string& text);
// {"batch=64", "phase=8"} -> {"batch": 64, "phase": 8}; values are JSON where they parse.
nlohmann::json parse_params(const std::vector<std::string>& assignments);
// "page_counter=v6.1" (built-in or plugin), "page_counter=my.json", "page_counter=btf" (the
// running kernel's BTF), "page_counter=btf:FILE" -> the validated layout.
engine::Layout parse_layout(const std::string& assignment);
// {"page_counter=v6.1", "mem_cgroup=btf"} -> struct name -> validated layout.
std::map<std::string, engine::Layout> parse_layouts(const std::vector<std::string>& assignments);
// "200us/2ms": trace for ON out of every PERIOD; empty text traces all the time.
engine::TraceWindow parse_trace_window(const std::string& text);
// "auto", "bar", "json" or "none".
collector::ProgressStyle parse_progress_style(const std::string& text);
// A whole number in min..max, written in decimal digits only: "-5", "0x10", "1e3" and values out
// of range are refused, naming `what` (e.g. "--iterations").
std::uint64_t parse_count(const std::string& text, const char* what, std::uint64_t min,
                          std::uint64_t max);
// "8" or "8M" or "1G" -> bytes (plain numbers are MiB).
std::size_t parse_megabytes(const std::string& text);

} // namespace hitmap::cli
