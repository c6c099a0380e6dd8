#include "collector/run/perf_recording.hpp"

#include "collector/locks/text_scan.hpp"
#include "collector/perf/perf_tool.hpp"
#include "collector/support/text_file.hpp"

#include <array>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace hitmap::collector {

namespace {

using std::chrono::milliseconds;

double in_seconds(milliseconds d) {
    return std::chrono::duration<double>(d).count();
}

// Which perf to name in a message: the bare name users type, or the path a test gave.
std::string missing_message(const PerfCommand& perf, const SpawnError& e) {
    if (e.error() == ENOENT && perf.program.find('/') == std::string::npos)
        return fmt::format("{}: {}", perf.asker, perf::perf_not_found(perf.program));
    return fmt::format("{}: {}", perf.asker, e.what());
}

ChildProcess start_perf(const PerfCommand& perf, std::vector<std::string> args,
                        const ScratchDir& dir, std::string_view name) {
    args.insert(args.begin(), perf.program);
    try {
        return ChildProcess(args, dir / (std::string(name) + ".out"),
                            dir / (std::string(name) + ".err"));
    } catch (const SpawnError& e) {
        throw PerfToolMissing(missing_message(perf, e));
    }
}

[[noreturn]] void throw_perf_failure(const PerfCommand& perf, std::string_view what,
                                     const ScratchDir& dir, std::string_view name,
                                     const ExitStatus& status) {
    throw PerfFailed(
        fmt::format("{}: {} failed: {} ({})", perf.asker, what,
                    perf_failure_reason(
                        support::read_text_file(dir / (std::string(name) + ".err")).value_or("")),
                    describe(status)));
}

std::string record_name(PerfRecorder recorder) {
    return fmt::format("perf {} record", to_string(recorder));
}

// Without --no-buildid-cache perf record would copy the recorded binaries into ~/.debug after
// every recording.
constexpr const char* kNoBuildidCache = "--no-buildid-cache";

} // namespace

std::string perf_failure_reason(std::string_view text) {
    std::vector<std::string_view> lines;
    for (std::size_t at = 0; at <= text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        const std::string_view line = locks::trim(text.substr(at, end - at));
        at = end + 1;
        if (line.empty() || line.starts_with("[ perf record:") || line == "Events disabled" ||
            line == "Events enabled")
            continue;
        lines.push_back(line);
    }
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (lines[i].starts_with("Error:")) {
            const std::string_view rest = locks::trim(lines[i].substr(6));
            if (!rest.empty())
                return std::string(rest);
            if (i + 1 < lines.size())
                return std::string(lines[i + 1]);
        }
    for (const std::string_view line : lines)
        if (line.starts_with("failed: "))
            return std::string(line.substr(8));
    return lines.empty() ? "no message" : std::string(lines.front());
}

std::string_view to_string(PerfRecorder recorder) {
    return recorder == PerfRecorder::c2c ? "c2c" : "lock";
}

void probe_perf(const PerfCommand& perf, PerfRecorder recorder, milliseconds timeout) {
    const ScratchDir dir("hitmap-perf-probe");
    ChildProcess probe =
        start_perf(perf,
                   {std::string(to_string(recorder)), "record",
                    "--output=" + (dir / "probe.data").string(), kNoBuildidCache, "--", "true"},
                   dir, "probe");
    const std::optional<ExitStatus> status = probe.wait_for(timeout);
    if (!status)
        throw PerfFailed(fmt::format("{}: {} of `true` did not finish within {} s", perf.asker,
                                     record_name(recorder), in_seconds(timeout)));
    if (!status->exited_with(0))
        throw_perf_failure(perf, record_name(recorder), dir, "probe", *status);
}

std::vector<std::string> this_process_target() {
    return process_target(::getpid());
}

std::vector<std::string> process_target(pid_t pid) {
    return {fmt::format("--pid={}", pid)};
}

std::vector<std::string> system_wide_target() {
    return {"--all-cpus"};
}

PerfRecording::PerfRecording(const PerfCommand& perf, PerfRecorder recorder,
                             std::vector<std::string> target, milliseconds start_timeout)
    : perf_(perf)
    , recorder_(recorder)
    , dir_(fmt::format("hitmap-perf-{}", to_string(recorder))) {
    const std::filesystem::path control = dir_ / "control";
    const std::filesystem::path ack = dir_ / "ack";
    for (const auto& fifo : {control, ack})
        if (::mkfifo(fifo.c_str(), 0600) != 0)
            throw std::system_error(errno, std::generic_category(), "mkfifo " + fifo.string());
    // Opened read-write here: neither open waits for perf, and "enable" waits in the fifo
    // until perf reads it.
    control_ = support::UniqueFd(::open(control.c_str(), O_RDWR | O_CLOEXEC));
    ack_ = support::UniqueFd(::open(ack.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC));
    if (!control_ || !ack_)
        throw std::system_error(errno, std::generic_category(), "open perf control fifo");
    std::vector<std::string> args{std::string(to_string(recorder)), "record",
                                  "--output=" + (dir_ / "perf.data").string()};
    args.insert(args.end(), target.begin(), target.end());
    args.insert(args.end(),
                {"--delay=-1", fmt::format("--control=fifo:{},{}", control.string(), ack.string()),
                 kNoBuildidCache});
    record_.emplace(start_perf(perf_, std::move(args), dir_, "record"));

    constexpr std::string_view enable = "enable\n";
    if (::write(control_.get(), enable.data(), enable.size()) !=
        static_cast<ssize_t>(enable.size()))
        throw std::system_error(errno, std::generic_category(), "write perf control fifo");
    const auto deadline = std::chrono::steady_clock::now() + start_timeout;
    std::string acked;
    while (acked.find("ack\n") == std::string::npos) {
        if (const auto status = record_->wait_for(milliseconds(0)))
            throw_perf_failure(perf_, record_name(recorder_), dir_, "record", *status);
        const auto left =
            std::chrono::ceil<milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            throw PerfFailed(fmt::format("{}: {} did not acknowledge 'enable' within {} s",
                                         perf_.asker, record_name(recorder_),
                                         in_seconds(start_timeout)));
        std::array<pollfd, 2> fds{pollfd{ack_.get(), POLLIN, 0},
                                  pollfd{record_->exit_fd(), POLLIN, 0}};
        ::poll(fds.data(), fds.size(), static_cast<int>(left.count()));
        std::array<char, 64> buffer{};
        if (const ssize_t n = ::read(ack_.get(), buffer.data(), buffer.size()); n > 0)
            acked.append(buffer.data(), static_cast<std::size_t>(n));
    }
}

PerfRecording::~PerfRecording() = default; // record_ kills perf, then dir_ goes

void PerfRecording::stop(milliseconds timeout) {
    record_->signal(SIGINT);
    const std::optional<ExitStatus> status = record_->wait_for(timeout);
    if (!status)
        throw PerfFailed(fmt::format("{}: {} did not finish within {} s of SIGINT", perf_.asker,
                                     record_name(recorder_), in_seconds(timeout)));
    // perf record ends by raising the SIGINT it caught once its data is written.
    if (!status->exited_with(0) && !status->killed_by(SIGINT))
        throw_perf_failure(perf_, record_name(recorder_), dir_, "record", *status);
}

std::optional<std::string> PerfRecording::report(const std::atomic<bool>& cancel) const {
    const std::string input = "--input=" + (dir_ / "perf.data").string();
    std::vector<std::string> args = recorder_ == PerfRecorder::c2c
                                        ? std::vector<std::string>{"c2c", "report", "--stdio"}
                                        : std::vector<std::string>{"lock", "contention"};
    args.push_back(input);
    const std::string what = fmt::format("perf {} {}", args[0], args[1]);
    ChildProcess report = start_perf(perf_, std::move(args), dir_, "report");
    std::optional<ExitStatus> status;
    while (!(status = report.wait_for(milliseconds(100))))
        if (cancel.load())
            return std::nullopt;
    if (!status->exited_with(0))
        throw_perf_failure(perf_, what, dir_, "report", *status);
    std::string text = support::read_text_file(dir_ / "report.out").value_or("");
    // perf 6.1's perf lock contention prints its table on stderr (pr_info; seen here: the header
    // line on stderr, nothing on stdout); later perfs print it on stdout. Whichever it was, the
    // importer skips the prose around the table.
    if (recorder_ == PerfRecorder::lock)
        text = support::read_text_file(dir_ / "report.err").value_or("") + text;
    return text;
}

} // namespace hitmap::collector
