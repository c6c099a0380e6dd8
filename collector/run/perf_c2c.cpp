#include "collector/run/perf_c2c.hpp"

#include "collector/locks/text_scan.hpp"
#include "collector/perf/perf_tool.hpp"
#include "collector/perfc2c/errors.hpp"
#include "collector/perfc2c/report_parser.hpp"
#include "collector/run/placed_objects.hpp"
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
#include <vector>

namespace hitmap::collector {

namespace {

using std::chrono::milliseconds;

double in_seconds(milliseconds d) {
    return std::chrono::duration<double>(d).count();
}

// Which perf to name in a message: the bare name users type, or the path a test gave.
std::string missing_message(const PerfC2cCommand& perf, const SpawnError& e) {
    if (e.error() == ENOENT && perf.program.find('/') == std::string::npos)
        return "--c2c perf: " + perf::perf_not_found(perf.program);
    return fmt::format("--c2c perf: {}", e.what());
}

ChildProcess start_perf(const PerfC2cCommand& perf, std::vector<std::string> args,
                        const ScratchDir& dir, std::string_view name) {
    args.insert(args.begin(), perf.program);
    try {
        return ChildProcess(args, dir / (std::string(name) + ".out"),
                            dir / (std::string(name) + ".err"));
    } catch (const SpawnError& e) {
        throw PerfToolMissing(missing_message(perf, e));
    }
}

[[noreturn]] void throw_perf_failure(std::string_view what, const ScratchDir& dir,
                                     std::string_view name, const ExitStatus& status) {
    throw PerfC2cFailed(
        fmt::format("--c2c perf: {} failed: {} ({})", what,
                    perf_failure_reason(
                        support::read_text_file(dir / (std::string(name) + ".err")).value_or("")),
                    describe(status)));
}

// Without --no-buildid-cache perf record would copy this binary into ~/.debug after every run.
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

void probe_perf_c2c(const PerfC2cCommand& perf, milliseconds timeout) {
    const ScratchDir dir("hitmap-perf-c2c-probe");
    ChildProcess probe = start_perf(perf,
                                    {"c2c", "record", "--output=" + (dir / "probe.data").string(),
                                     kNoBuildidCache, "--", "true"},
                                    dir, "probe");
    const std::optional<ExitStatus> status = probe.wait_for(timeout);
    if (!status)
        throw PerfC2cFailed(
            fmt::format("--c2c perf: perf c2c record of `true` did not finish within {} s",
                        in_seconds(timeout)));
    if (!status->exited_with(0))
        throw_perf_failure("perf c2c record", dir, "probe", *status);
}

PerfC2cRecording::PerfC2cRecording(const PerfC2cCommand& perf, milliseconds start_timeout)
    : perf_(perf)
    , dir_("hitmap-perf-c2c") {
    const std::filesystem::path control = dir_ / "control";
    const std::filesystem::path ack = dir_ / "ack";
    for (const auto& fifo : {control, ack})
        if (::mkfifo(fifo.c_str(), 0600) != 0)
            throw std::system_error(errno, std::generic_category(), "mkfifo " + fifo.string());
    // Opened read-write here: neither open waits for perf, and "enable" waits in the fifo
    // until perf reads it.
    control_ = perf::UniqueFd(::open(control.c_str(), O_RDWR | O_CLOEXEC));
    ack_ = perf::UniqueFd(::open(ack.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC));
    if (!control_ || !ack_)
        throw std::system_error(errno, std::generic_category(), "open perf control fifo");
    record_.emplace(start_perf(perf_,
                               {"c2c", "record", "--output=" + (dir_ / "perf.data").string(),
                                fmt::format("--pid={}", ::getpid()), "--delay=-1",
                                fmt::format("--control=fifo:{},{}", control.string(), ack.string()),
                                kNoBuildidCache},
                               dir_, "record"));

    constexpr std::string_view enable = "enable\n";
    if (::write(control_.get(), enable.data(), enable.size()) !=
        static_cast<ssize_t>(enable.size()))
        throw std::system_error(errno, std::generic_category(), "write perf control fifo");
    const auto deadline = std::chrono::steady_clock::now() + start_timeout;
    std::string acked;
    while (acked.find("ack\n") == std::string::npos) {
        if (const auto status = record_->wait_for(milliseconds(0)))
            throw_perf_failure("perf c2c record", dir_, "record", *status);
        const auto left =
            std::chrono::ceil<milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            throw PerfC2cFailed(
                fmt::format("--c2c perf: perf c2c record did not acknowledge 'enable' within {} s",
                            in_seconds(start_timeout)));
        std::array<pollfd, 2> fds{pollfd{ack_.get(), POLLIN, 0},
                                  pollfd{record_->exit_fd(), POLLIN, 0}};
        ::poll(fds.data(), fds.size(), static_cast<int>(left.count()));
        std::array<char, 64> buffer{};
        if (const ssize_t n = ::read(ack_.get(), buffer.data(), buffer.size()); n > 0)
            acked.append(buffer.data(), static_cast<std::size_t>(n));
    }
}

PerfC2cRecording::~PerfC2cRecording() = default; // record_ kills perf, then dir_ goes

void PerfC2cRecording::stop(milliseconds timeout) {
    record_->signal(SIGINT);
    const std::optional<ExitStatus> status = record_->wait_for(timeout);
    if (!status)
        throw PerfC2cFailed(
            fmt::format("--c2c perf: perf c2c record did not finish within {} s of SIGINT",
                        in_seconds(timeout)));
    // perf record ends by raising the SIGINT it caught once its data is written.
    if (!status->exited_with(0) && !status->killed_by(SIGINT))
        throw_perf_failure("perf c2c record", dir_, "record", *status);
}

std::optional<std::string> PerfC2cRecording::report(const std::atomic<bool>& cancel) const {
    ChildProcess report =
        start_perf(perf_, {"c2c", "report", "--stdio", "--input=" + (dir_ / "perf.data").string()},
                   dir_, "report");
    std::optional<ExitStatus> status;
    while (!(status = report.wait_for(milliseconds(100))))
        if (cancel.load())
            return std::nullopt;
    if (!status->exited_with(0))
        throw_perf_failure("perf c2c report", dir_, "report", *status);
    return support::read_text_file(dir_ / "report.out").value_or("");
}

perfc2c::C2cReport read_perf_c2c_report(std::string_view text) {
    try {
        return perfc2c::parse_c2c_report(text);
    } catch (const perfc2c::C2cParseError& e) {
        throw PerfC2cReportUnreadable(
            fmt::format("--c2c perf: perf c2c report's text, {}", e.what()));
    } catch (const perfc2c::NotAC2cReport& e) {
        throw PerfC2cReportUnreadable(
            fmt::format("--c2c perf: perf c2c report printed no report: {}", e.what()));
    }
}

perfc2c::ImportedC2c perf_c2c_tables(const perfc2c::C2cReport& report,
                                     const engine::WorkloadResult& result,
                                     const std::vector<std::string>& specs) {
    std::vector<perfc2c::PlacedLayout> placed;
    const auto& objects = result.objects.objects();
    const auto& addresses = result.objects.addresses();
    for (std::size_t i = 0; i < objects.size(); ++i)
        if (addresses.at(i) != 0) // an object with no memory of its own was never sampled
            placed.push_back({objects[i].layout, addresses[i], objects[i].name});
    std::vector<std::uint64_t> sampled; // every data address the Pareto rows name
    for (const perfc2c::ParetoLine& p : report.pareto)
        for (const perfc2c::ParetoRow& r : p.rows)
            sampled.push_back(p.address + r.offset);
    for (perfc2c::PlacedLayout& p : place_objects(specs, SymbolSource::this_machine(), sampled))
        placed.push_back(std::move(p));
    perfc2c::ImportedC2c imported =
        perfc2c::import_report(report, placed, perfc2c::UncoveredLayout::keep);
    if (imported.data) {
        store::TraceInfo& t = imported.data->trace;
        t.threads = static_cast<std::uint32_t>(result.ops_per_thread.size());
        t.traced_ops = result.ops; // every operation ran while perf recorded
        t.known.traced_ops = true;
    }
    // perf's figures of this run, taken on this machine: not a text brought from elsewhere.
    for (store::Metric& m : imported.metrics)
        m.source = store::Source::measured;
    return imported;
}

std::optional<std::string> report_notes(const std::vector<perfc2c::Note>& notes) {
    if (notes.empty())
        return std::nullopt;
    std::string text = "perf c2c report:";
    for (const perfc2c::Note& n : notes)
        text += n.line ? fmt::format(" line {}: {};", n.line, n.text) : fmt::format(" {};", n.text);
    text.pop_back();
    return text;
}

} // namespace hitmap::collector
