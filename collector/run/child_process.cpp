#include "collector/run/child_process.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <system_error>
#include <unistd.h>
#include <utility>

extern char** environ;

namespace hitmap::collector {

namespace {

// posix_spawn's attributes and file actions, destroyed on every path.
class SpawnSetup {
public:
    SpawnSetup() {
        ::posix_spawnattr_init(&attr_);
        ::posix_spawn_file_actions_init(&actions_);
    }
    ~SpawnSetup() {
        ::posix_spawn_file_actions_destroy(&actions_);
        ::posix_spawnattr_destroy(&attr_);
    }
    SpawnSetup(const SpawnSetup&) = delete;
    SpawnSetup& operator=(const SpawnSetup&) = delete;

    posix_spawnattr_t attr_;
    posix_spawn_file_actions_t actions_;
};

ExitStatus decode_wait_status(int status) {
    ExitStatus s;
    if (WIFEXITED(status))
        s.code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        s.signal = WTERMSIG(status);
    return s;
}

} // namespace

std::string describe(const ExitStatus& status) {
    if (status.code)
        return fmt::format("exit {}", *status.code);
    if (status.signal)
        return fmt::format("signal {} ({})", *status.signal, ::strsignal(*status.signal));
    return "unknown status";
}

SpawnError::SpawnError(const std::string& program, int error)
    : std::runtime_error(fmt::format("cannot run {}: {}", program, std::strerror(error)))
    , error_(error) {}

ChildProcess::ChildProcess(const std::vector<std::string>& argv,
                           const std::optional<std::filesystem::path>& stdout_file,
                           const std::optional<std::filesystem::path>& stderr_file) {
    if (argv.empty())
        throw SpawnError("(nothing)", EINVAL);
    SpawnSetup setup;
    // No O_CLOEXEC: glibc closes the target descriptor first, so the open lands on it and
    // would be closed again by the exec.
    constexpr int kOut = O_WRONLY | O_CREAT | O_TRUNC;
    ::posix_spawn_file_actions_addopen(&setup.actions_, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    if (stdout_file)
        ::posix_spawn_file_actions_addopen(&setup.actions_, STDOUT_FILENO, stdout_file->c_str(),
                                           kOut, 0600);
    if (stderr_file)
        ::posix_spawn_file_actions_addopen(&setup.actions_, STDERR_FILENO, stderr_file->c_str(),
                                           kOut, 0600);
    // The child starts with default dispositions and nothing blocked, whatever this process
    // ignores or masks (a shell without job control starts background jobs with SIGINT
    // ignored, and perf record is stopped by SIGINT).
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGPIPE);
    sigset_t none;
    sigemptyset(&none);
    ::posix_spawnattr_setsigdefault(&setup.attr_, &defaults);
    ::posix_spawnattr_setsigmask(&setup.attr_, &none);
    ::posix_spawnattr_setpgroup(&setup.attr_, 0);
    ::posix_spawnattr_setflags(&setup.attr_, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK |
                                                 POSIX_SPAWN_SETPGROUP);
    std::vector<char*> args;
    for (const std::string& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // glibc's posix_spawnp reports the exec's failure (ENOENT, EACCES) as its own result.
    if (const int rc = ::posix_spawnp(&pid_, argv[0].c_str(), &setup.actions_, &setup.attr_,
                                      args.data(), environ);
        rc != 0)
        throw SpawnError(argv[0], rc);
    // Through syscall(): glibc 2.36's <sys/pidfd.h> declares pidfd_open without C linkage.
    pidfd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
    if (pidfd_ < 0) {
        const int error = errno;
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
        throw std::system_error(error, std::generic_category(), "pidfd_open");
    }
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1))
    , pidfd_(std::exchange(other.pidfd_, -1))
    , status_(std::exchange(other.status_, ExitStatus{})) {}

ChildProcess::~ChildProcess() {
    if (pid_ > 0 && !status_) {
        // The child leads its own group: whatever it started goes too. SIGKILL cannot be
        // caught, so the wait is short.
        ::kill(-pid_, SIGKILL);
        while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
    if (pidfd_ >= 0)
        ::close(pidfd_);
}

void ChildProcess::signal(int sig) {
    if (!status_)
        ::kill(pid_, sig);
}

std::optional<ExitStatus> ChildProcess::reap() {
    if (status_)
        return status_;
    int status = 0;
    pid_t r = 0;
    do
        r = ::waitpid(pid_, &status, WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r == pid_)
        status_ = decode_wait_status(status);
    return status_;
}

std::optional<ExitStatus> ChildProcess::wait_for(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!reap()) {
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            return std::nullopt;
        pollfd p{pidfd_, POLLIN, 0};
        ::poll(&p, 1, static_cast<int>(left.count())); // EINTR (a cancel signal): look again
    }
    return status_;
}

} // namespace hitmap::collector
