#pragma once
// A fake /sys and /proc for the detection tests (PMU, machine capabilities).
#include "collector/perf/sysfs.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>

namespace hitmap::perf {

// A fake /sys and /proc: each test builds the files of one kind of machine, so every branch
// of the detection runs here, whatever this machine has.
class FakeRoots {
public:
    FakeRoots() {
        dir_ = std::filesystem::temp_directory_path() /
               ("hitmap-roots-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(dir_);
        roots_ = {dir_ / "sys", dir_ / "proc"};
        std::filesystem::create_directories(roots_.sys);
        std::filesystem::create_directories(roots_.proc);
    }
    ~FakeRoots() { std::filesystem::remove_all(dir_); }
    void file(const std::filesystem::path& relative_to_root, const std::string& text) {
        std::filesystem::create_directories(relative_to_root.parent_path());
        std::ofstream(relative_to_root) << text << "\n";
    }
    void event(const char* pmu, const char* name) {
        file(pmu_directory(pmu, roots_) / "events" / name, "event=0xcd,umask=0x1");
    }
    void tracepoints(bool lock) {
        std::filesystem::create_directories(roots_.sys / "kernel/tracing/events/sched");
        if (lock) {
            file(roots_.sys / "kernel/tracing/events/lock/contention_begin/id", "1510");
            file(roots_.sys / "kernel/tracing/events/lock/contention_end/id", "1511");
        }
    }
    const SystemRoots& roots() const { return roots_; }

private:
    std::filesystem::path dir_;
    SystemRoots roots_;
};

} // namespace hitmap::perf
