#pragma once
// A program the collector runs (perf, the command `record` records), without a shell: argv as
// given, looked up in PATH as a shell would, stdin from /dev/null, stdout and stderr into files
// or the collector's own, in a process group of its own (a ^C at the terminal reaches the
// collector, which stops the child itself). A child still running when the object goes is killed
// and reaped: a failed or cancelled run leaves no process behind.
#include <chrono>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <sys/types.h>
#include <vector>

namespace hitmap::collector {

// How a child ended: exit(code), or killed by a signal.
struct ExitStatus {
    std::optional<int> code;
    std::optional<int> signal;

    bool exited_with(int c) const { return code == c; }
    bool killed_by(int s) const { return signal == s; }
};

// "exit 255", "signal 9 (Killed)".
std::string describe(const ExitStatus& status);

// The program could not be started: not found in PATH, not executable, ... error() is the
// errno posix_spawnp gave (ENOENT: not found).
class SpawnError : public std::runtime_error {
public:
    SpawnError(const std::string& program, int error);
    int error() const { return error_; }

private:
    int error_;
};

class ChildProcess {
public:
    // Throws SpawnError when argv[0] cannot be started. An output without a file is the
    // collector's own.
    ChildProcess(const std::vector<std::string>& argv,
                 const std::optional<std::filesystem::path>& stdout_file,
                 const std::optional<std::filesystem::path>& stderr_file);
    ~ChildProcess(); // SIGKILL and reap when still running
    ChildProcess(ChildProcess&& other) noexcept;
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    pid_t pid() const { return pid_; }
    // Readable once the child has ended, for poll() beside other descriptors.
    int exit_fd() const { return pidfd_; }

    void signal(int sig); // no-op once the child has been reaped

    // How it ended, waiting at most `timeout` for it; nullopt while it still runs.
    std::optional<ExitStatus> wait_for(std::chrono::milliseconds timeout);

private:
    std::optional<ExitStatus> reap(); // non-blocking

    pid_t pid_ = -1;
    int pidfd_ = -1;
    std::optional<ExitStatus> status_;
};

} // namespace hitmap::collector
