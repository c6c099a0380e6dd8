// A database is input from elsewhere (merge exists to combine databases from other machines):
// every trace path it names must resolve inside its own trace folder as a regular file. Rows
// naming "../" paths, absolute paths, links out of the folder and FIFOs are refused by merge,
// predict, report and export with one line naming the run, and nothing outside the folder is
// opened: inotify watches the folder outside, which holds a file and a FIFO that would block a
// reader, and reports every open of either.
#include "tests/cli/cli_test_support.hpp"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <array>
#include <functional>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hitmap::testing {
namespace {

using ::testing::HasSubstr;

// Opens of anything in `folder` since construction, read without waiting: inotify queues an
// event as the open happens, so once the CLI has exited every open it made is in the queue.
class OpenWatch {
public:
    explicit OpenWatch(const std::filesystem::path& folder)
        : fd_(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
        EXPECT_GE(fd_, 0);
        EXPECT_GE(inotify_add_watch(fd_, folder.c_str(), IN_OPEN | IN_ACCESS), 0);
    }
    ~OpenWatch() { ::close(fd_); }
    OpenWatch(const OpenWatch&) = delete;
    OpenWatch& operator=(const OpenWatch&) = delete;

    // The names opened or read since the last call.
    std::vector<std::string> opened() {
        std::vector<std::string> names;
        alignas(inotify_event) std::array<char, 4096> buf{};
        ssize_t n = 0;
        while ((n = ::read(fd_, buf.data(), buf.size())) > 0)
            for (ssize_t at = 0; at < n;) {
                const auto* e = reinterpret_cast<const inotify_event*>(buf.data() + at);
                names.emplace_back(e->len ? e->name : "(the folder)");
                at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
            }
        return names;
    }

private:
    int fd_;
};

// hitmap-collect under a time limit: a command that blocks on a FIFO fails the test with
// status 124 instead of hanging it.
CliResult run_bounded(const std::vector<std::string>& args, const std::filesystem::path& scratch) {
    std::vector<std::string> argv{"timeout", "--kill-after=5", "120", hitmap_collect()};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_command(argv, scratch);
}

void set_trace_path(const std::string& db, const std::string& path) {
    SQLite::Database sql(db, SQLite::OPEN_READWRITE);
    SQLite::Statement q(sql, "UPDATE run_trace SET path = ? WHERE run_id = 1");
    q.bind(1, path);
    ASSERT_EQ(q.exec(), 1);
}

class TracePaths : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(seed_run(db_, dir_.path(), "300", {"--c2c", "software"}).status, 0);
        ASSERT_TRUE(std::filesystem::exists(trace_));
        std::filesystem::create_directories(outside_);
        std::ofstream(outside_ / "secret") << "not a trace";
        ASSERT_EQ(::mkfifo((outside_ / "fifo").c_str(), 0644), 0);
    }

    // Every command that reads run 1's trace row refuses it in one line naming the run, opens
    // nothing outside the trace folder, and merge copies nothing.
    void expect_refused(const std::string& why, const std::string& reason) {
        OpenWatch watch(outside_);
        const std::string merged = (dir_ / (why + ".db")).string();
        const std::vector<std::vector<std::string>> commands{
            {"merge", db_, "-o", merged},
            {"predict", "1", "--layout", "mem_cgroup=v6.1", "--db", db_},
            {"report", "1", "--db", db_},
            {"export", "--db", db_}};
        for (const auto& args : commands) {
            const CliResult r = run_bounded(args, dir_.path());
            EXPECT_NE(r.status, 0) << why << ": " << args[0];
            EXPECT_EQ(count_lines(r.err), 1) << why << ": " << args[0] << ": " << r.err;
            EXPECT_THAT(r.err, HasSubstr("run 1")) << why << ": " << args[0];
            EXPECT_THAT(r.err, HasSubstr(reason)) << why << ": " << args[0];
        }
        EXPECT_THAT(watch.opened(), ::testing::IsEmpty()) << why;
        EXPECT_FALSE(std::filesystem::exists(merged + ".traces/run-1.trace.zst")) << why;
    }

    TempDir dir_;
    const std::string db_ = (dir_ / "a.db").string();
    const std::filesystem::path trace_ = dir_ / "a.db.traces/run-1.trace.zst";
    const std::filesystem::path outside_ = dir_ / "outside";
};

TEST_F(TracePaths, NamesOutsideTheFolderAreRefusedByEveryReader) {
    set_trace_path(db_, "../outside/secret");
    expect_refused("relative", "\"../outside/secret\" is not a file name");
    set_trace_path(db_, (outside_ / "fifo").string());
    expect_refused("absolute", "is not a file name in the database's trace folder");
    set_trace_path(db_, "run-1.trace.zst/../../outside/secret");
    expect_refused("through the folder", "is not a file name");
}

// A file in the folder that is not a regular one: predict and merge, which open the trace,
// refuse it without following the link or waiting on the FIFO; report and export read the
// database's tables only and open no trace at all.
TEST_F(TracePaths, LinksAndFifosInTheFolderAreNotFollowedOrWaitedOn) {
    struct Case {
        std::string why, reason;
        std::function<void()> plant;
    };
    const std::vector<Case> cases{
        {"link to a file outside", "is a symbolic link",
         [&] { std::filesystem::create_symlink(outside_ / "secret", trace_); }},
        {"link to a FIFO outside", "is a symbolic link",
         [&] { std::filesystem::create_symlink(outside_ / "fifo", trace_); }},
        {"FIFO", "is a FIFO, not a regular file",
         [&] { ASSERT_EQ(::mkfifo(trace_.c_str(), 0644), 0); }},
    };
    std::filesystem::rename(trace_, dir_ / "kept.trace.zst");
    for (const Case& c : cases) {
        std::filesystem::remove(trace_);
        c.plant();
        OpenWatch watch(outside_);
        const std::string merged = (dir_ / (c.why + ".db")).string();
        for (const auto& args : std::vector<std::vector<std::string>>{
                 {"merge", db_, "-o", merged},
                 {"predict", "1", "--layout", "mem_cgroup=v6.1", "--db", db_}}) {
            const CliResult r = run_bounded(args, dir_.path());
            EXPECT_NE(r.status, 0) << c.why << ": " << args[0];
            EXPECT_EQ(count_lines(r.err), 1) << c.why << ": " << args[0] << ": " << r.err;
            EXPECT_THAT(r.err, HasSubstr("run 1")) << c.why << ": " << args[0];
            EXPECT_THAT(r.err, HasSubstr(c.reason)) << c.why << ": " << args[0];
        }
        for (const auto& args : std::vector<std::vector<std::string>>{{"report", "1", "--db", db_},
                                                                      {"export", "--db", db_}})
            EXPECT_EQ(run_bounded(args, dir_.path()).status, 0) << c.why << ": " << args[0];
        EXPECT_THAT(watch.opened(), ::testing::IsEmpty()) << c.why;
        EXPECT_FALSE(std::filesystem::exists(merged + ".traces/run-1.trace.zst")) << c.why;
        EXPECT_TRUE(std::filesystem::is_symlink(trace_) ||
                    std::filesystem::is_fifo(std::filesystem::symlink_status(trace_)))
            << c.why << ": left as it was";
    }
}

// A trace the user may not read is reported as that, not as missing.
TEST_F(TracePaths, AnUnreadableTraceSaysPermissionDenied) {
    if (::geteuid() != 0)
        GTEST_SKIP() << "runs the CLI as nobody through setpriv, which needs root";
    std::filesystem::permissions(trace_, std::filesystem::perms::none);
    // As nobody: root reads any file whatever its mode.
    const CliResult r = run_command({"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                                     hitmap_collect(), "predict", "1", "--db", db_},
                                    dir_.path());
    EXPECT_NE(r.status, 0);
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_THAT(r.err, HasSubstr("run 1: cannot read trace file"));
    EXPECT_THAT(r.err, HasSubstr("Permission denied"));
    EXPECT_THAT(r.err, ::testing::Not(HasSubstr("missing")));
}

} // namespace
} // namespace hitmap::testing
