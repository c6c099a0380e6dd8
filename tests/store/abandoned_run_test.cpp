// A run left 'running' by a process that is gone reads as abandoned (failure 9 of issue 9):
// readers see it at once, the next writer stores it; a live writer's run stays running.
#include "collector/store/database.hpp"
#include "collector/store/process_identity.hpp"
#include "collector/store/sql_connection.hpp"
#include "tests/store/store_test_support.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

namespace hitmap::store {
namespace {

// Begins a run in a child process that then dies without finishing it.
std::int64_t run_begun_by_a_dead_process(const std::filesystem::path& path) {
    const std::int64_t machine = Database::open(path).upsert_machine(detect_machine(), "{}");
    int pipe_fds[2];
    EXPECT_EQ(::pipe(pipe_fds), 0);
    const pid_t child = ::fork();
    if (child == 0) {
        auto db = Database::open(path);
        const std::int64_t id = db.begin_run(testing::sample_run(machine));
        (void)!::write(pipe_fds[1], &id, sizeof id);
        ::_exit(0); // as if killed: no finish_run, no destructors
    }
    std::int64_t id = 0;
    EXPECT_EQ(::read(pipe_fds[0], &id, sizeof id), static_cast<ssize_t>(sizeof id));
    int status = 0;
    ::waitpid(child, &status, 0);
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    return id;
}

TEST(AbandonedRuns, RunOfADeadWriterIsAbandonedForReadersAndStoredSoByTheNextWriter) {
    testing::TempDir dir;
    const auto path = dir / "hitmap.db";
    const std::int64_t id = run_begun_by_a_dead_process(path);

    {
        const auto reader = Database::open(path, {.read_only = true});
        EXPECT_EQ(reader.run(id)->status, RunStatus::abandoned);
        SQLite::Database raw(path, SQLite::OPEN_READONLY);
        EXPECT_EQ(raw.execAndGet("SELECT status FROM run").getString(), "running")
            << "a read-only open must not write";
    }
    auto writer = Database::open(path);
    const auto run = writer.run(id);
    EXPECT_EQ(run->status, RunStatus::abandoned);
    EXPECT_NE(run->note.value_or("").find("process ended"), std::string::npos);
    EXPECT_EQ(sql_connection(writer).execAndGet("SELECT status FROM run").getString(), "abandoned");
}

TEST(AbandonedRuns, RunOfALiveWriterStaysRunning) {
    testing::TempDir dir;
    auto db = Database::open(dir / "hitmap.db");
    const auto id = db.begin_run(testing::sample_run(db.upsert_machine(detect_machine(), "{}")));
    const auto again = Database::open(dir / "hitmap.db");
    EXPECT_EQ(again.run(id)->status, RunStatus::running);
}

TEST(ProcessIdentity, StartTimeIsFieldTwentyTwoEvenWithSpacesInTheName) {
    EXPECT_EQ(parse_start_ticks("42 (a b) c) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 777 "
                                "19 20\n"),
              777);
    EXPECT_EQ(parse_start_ticks("42 (short) S 1 2"), std::nullopt);
    EXPECT_EQ(parse_start_ticks("garbage"), std::nullopt);
}

TEST(ProcessIdentity, ThisProcessIsAliveAndAReusedPidIsNot) {
    const ProcessIdentity me = current_process();
    EXPECT_TRUE(process_alive(me));
    EXPECT_FALSE(process_alive({me.pid, me.start_ticks + 1}));
}

} // namespace
} // namespace hitmap::store
