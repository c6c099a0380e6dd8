#pragma once
// Temp directories and byte-exact file snapshots for the store tests.
#include "collector/store/records.hpp"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

namespace hitmap::store::testing {

class TempDir {
public:
    TempDir() {
        static std::atomic<int> counter{0};
        path_ =
            std::filesystem::temp_directory_path() /
            ("hitmap-store-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
        std::filesystem::remove_all(path_);
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                                     std::filesystem::perm_options::add, ec);
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

inline std::string read_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

// What "not modified in any byte" is checked against.
struct FileSnapshot {
    std::string bytes;
    std::filesystem::file_time_type mtime;
    bool operator==(const FileSnapshot&) const = default;
};

inline FileSnapshot snapshot(const std::filesystem::path& path) {
    return {read_bytes(path), std::filesystem::last_write_time(path)};
}

// Backdated first, so a write in the same clock tick still shows up as a changed mtime.
inline FileSnapshot backdated_snapshot(const std::filesystem::path& path) {
    std::filesystem::last_write_time(path, std::filesystem::file_time_type::clock::now() -
                                               std::chrono::hours(1));
    return snapshot(path);
}

inline RunRecord sample_run(std::int64_t machine_id, std::string workload = "page_counter_charge",
                            std::string variant = "unpadded") {
    RunRecord run;
    run.machine_id = machine_id;
    run.workload = std::move(workload);
    run.variant = std::move(variant);
    run.params_json = R"({"threads": 4, "layout": "v5.11"})";
    run.threads = 4;
    return run;
}

} // namespace hitmap::store::testing
