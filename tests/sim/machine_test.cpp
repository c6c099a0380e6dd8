#include "collector/sim/errors.hpp"
#include "collector/sim/host_machine.hpp"
#include "collector/sim/machine_description.hpp"

#include <gtest/gtest.h>

namespace hitmap::sim {
namespace {

TEST(MachineDescription, BuiltinsAreTheSeedsMachinesAndRoundTripThroughJson) {
    std::vector<std::pair<std::string, unsigned>> seen;
    for (const MachineDescription& m : builtin_machines()) {
        seen.emplace_back(m.name, m.cpus());
        EXPECT_FALSE(m.latency_source.empty()) << m.name;
        EXPECT_EQ(machine_from_json(machine_to_json(m), "test"), m) << m.name;
    }
    EXPECT_EQ(seen, (std::vector<std::pair<std::string, unsigned>>{{"xeon-2s-72", 72},
                                                                   {"cascadelake-2s-96", 96},
                                                                   {"epyc-2s-256", 256},
                                                                   {"cooperlake-4s-144", 144}}));
}

TEST(MachineDescription, CpusAreNumberedCoresFirstSocketBySocketThenSiblings) {
    const MachineDescription m = find_machine("xeon-2s-72");
    EXPECT_EQ(distance(m, 0, 0), Distance::same_cpu);
    EXPECT_EQ(distance(m, 0, 17), Distance::same_llc);
    EXPECT_EQ(distance(m, 0, 18), Distance::remote_socket);
    EXPECT_EQ(distance(m, 0, 36), Distance::smt_sibling);
    EXPECT_EQ(distance(m, 19, 55), Distance::smt_sibling);
    EXPECT_DOUBLE_EQ(transfer_ns(m, distance(m, 0, 1)), 47);
    EXPECT_DOUBLE_EQ(transfer_ns(m, distance(m, 0, 18)), 134);

    const MachineDescription epyc = find_machine("epyc-2s-256");
    EXPECT_EQ(distance(epyc, 0, 7), Distance::same_llc); // one 8-core CCX
    EXPECT_EQ(distance(epyc, 0, 8), Distance::same_socket);
    EXPECT_EQ(distance(epyc, 0, 64), Distance::remote_socket);
    EXPECT_EQ(distance(epyc, 0, 128), Distance::smt_sibling);

    // Four sockets of 18 cores: CPUs 0-71 are the first threads, 72-143 their siblings.
    const MachineDescription cooper = find_machine("cooperlake-4s-144");
    EXPECT_EQ(cooper.cpus(), 144u);
    EXPECT_EQ(distance(cooper, 0, 17), Distance::same_llc);
    EXPECT_EQ(distance(cooper, 0, 18), Distance::remote_socket);
    EXPECT_EQ(distance(cooper, 0, 54), Distance::remote_socket); // the fourth socket: one hop
    EXPECT_EQ(distance(cooper, 0, 72), Distance::smt_sibling);
    EXPECT_EQ(distance(cooper, 71, 143), Distance::smt_sibling);
    EXPECT_EQ(place_of(cooper, 60).socket, 3u);
    EXPECT_DOUBLE_EQ(transfer_ns(cooper, distance(cooper, 0, 60)), 134);
}

TEST(MachineDescription, ABadDescriptionNamesItsSourceAndKey) {
    auto error_of = [](const nlohmann::json& j) {
        try {
            machine_from_json(j, "m.json");
        } catch (const MachineError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(error_of({{"name", "x"}, {"cores", 4}}),
              "m.json: cores is not a machine description key");
    EXPECT_EQ(error_of({{"name", "x"}, {"latency_ns", {{"l1_hit", -1}}}}),
              "m.json: latency_ns.l1_hit must be a number >= 0");
    EXPECT_EQ(error_of({{"name", "x"}, {"cores_per_socket", 6}, {"llc_groups_per_socket", 4}}),
              "m.json: llc_groups_per_socket must divide cores_per_socket");
    EXPECT_EQ(
        error_of(
            {{"name", "x"}, {"sockets", 4}, {"cores_per_socket", 64}, {"threads_per_core", 2}}),
        "m.json: sockets x cores_per_socket x threads_per_core is 512 CPUs; the model holds "
        "at most 256");
    EXPECT_EQ(error_of({{"sockets", 1}}), "m.json: name is missing or empty");
    EXPECT_THROW(find_machine("no-such-machine"), MachineError);
}

// A handoff of the host's ping-pong is a load miss and an upgrade: the fitted per-transaction
// latency is about half the handoff, and the simulator runs the ping-pong in that handoff time.
TEST(HostMachine, TheTransferLatencyIsFittedSoTheSimulatedPingPongTakesTheMeasuredHandoff) {
    MachineDescription two;
    two.name = "two";
    two.cores_per_socket = 2;
    const double transfer = transfer_for_handoff(two, 300);
    EXPECT_GT(transfer, 145);
    EXPECT_LT(transfer, 155);
    EXPECT_NEAR(transfer_for_handoff(two, 600), 2 * transfer, 10);
}

} // namespace
} // namespace hitmap::sim
