// Workload plugins end to end (issue 13): the example plugin through list, run (real threads
// and simulated), report and predict; libraries of another ABI or no plugin at all refused with
// one line and nothing stored.
#include "tests/cli/cli_test_support.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <elf.h>
#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>

namespace hitmap::testing {
namespace {

using ::testing::HasSubstr;

const std::string kExample = HITMAP_EXAMPLE_PLUGIN;

// HITMs on `field` of the run's report, over every line.
std::uint64_t field_hitm(const nlohmann::json& report, const std::string& field) {
    std::uint64_t n = 0;
    for (const auto& line : report["lines"])
        for (const auto& f : line["fields"])
            if (f["field"] == field)
                n += f["counts"]["hitm"].get<std::uint64_t>();
    return n;
}

TEST(Plugin, ListShowsTheExampleWorkloadAndItsLayouts) {
    TempDir dir;
    const CliResult r = run_cli({"--plugin", kExample, "list"}, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("example-hot-counter  (seed plugin)"));
    EXPECT_THAT(r.out, HasSubstr("request_stats    packed"));
    EXPECT_THAT(r.out, HasSubstr("request_stats    padded"));
    // Without the plugin the workload does not exist.
    const CliResult plain = run_cli({"list"}, dir.path());
    EXPECT_THAT(plain.out, ::testing::Not(HasSubstr("example-hot-counter")));
}

TEST(Plugin, RunsOnRealThreadsAndReportsItsFields) {
    TempDir dir;
    const auto db = (dir / "p.db").string();
    const CliResult r =
        run_cli({"run", "example-hot-counter", "--plugin", kExample, "--variant", "packed",
                 "--threads", "2", "--iterations", "2000", "--c2c", "software", "--db", db},
                dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    // A stored run is read without the plugin: its objects and fields are in the database.
    const CliResult report = run_cli({"report", "1", "--db", db}, dir.path());
    ASSERT_EQ(report.status, 0) << report.err;
    EXPECT_THAT(report.out, HasSubstr("example-hot-counter packed x2 threads"));
    EXPECT_THAT(report.out, HasSubstr("request_stats [0]"));
    EXPECT_THAT(report.out, HasSubstr("hits,limit,flags"));
}

// Simulated, so the counts are the model's and not the VM's: in "packed" the configuration
// reads take the line from the counter's writers; in "padded", and in "packed" predicted under
// the padded layout, they never do.
TEST(Plugin, SimulatedPackedLayoutFalselySharesAndPaddedDoesNot) {
    TempDir dir;
    const auto db = (dir / "s.db").string();
    const CliResult r = run_cli({"--plugin", kExample, "run", "example-hot-counter", "--variant",
                                 "packed,padded", "--simulate", "xeon-2s-72", "--threads", "4",
                                 "--iterations", "300", "--calibration-ops", "20000", "--db", db},
                                dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    auto report = [&](const std::string& run) {
        const CliResult rr = run_cli({"report", run, "--json", "--db", db}, dir.path());
        EXPECT_EQ(rr.status, 0) << rr.err;
        return nlohmann::json::parse(rr.out);
    };
    const nlohmann::json packed = report("1"), padded = report("2");
    EXPECT_GT(field_hitm(packed, "limit"), 100u);
    EXPECT_EQ(field_hitm(padded, "limit"), 0u);
    EXPECT_EQ(field_hitm(padded, "flags"), 0u);
    EXPECT_GT(field_hitm(padded, "hits"), 100u); // the counter itself is still shared

    // The packed run simulated again under the padded layout: `limit` stops moving.
    const CliResult predicted = run_cli({"--plugin", kExample, "predict", "1", "--simulate",
                                         "--layout", "request_stats=padded", "--json", "--db", db},
                                        dir.path());
    ASSERT_EQ(predicted.status, 0) << predicted.err;
    const nlohmann::json p = nlohmann::json::parse(predicted.out);
    bool found = false;
    for (const auto& row : p["fields"])
        if (row["field"] == "limit") {
            found = true;
            EXPECT_GT(row["recorded"]["transfers_per_1k_ops"].get<double>(), 100.0);
            EXPECT_LT(row["predicted"]["transfers_per_1k_ops"].get<double>(), 10.0);
        }
    EXPECT_TRUE(found) << predicted.out;
    // No memcg counter in this workload: the charged-usage summary is unknown, not zero.
    EXPECT_TRUE(p["usage_lines"]["recorded"]["transfers_per_1k_ops"].is_null());
}

TEST(Plugin, AWrongAbiVersionIsRefusedAndNothingIsStored) {
    TempDir dir;
    const auto db = dir / "w.db";
    const CliResult r =
        run_cli({"--plugin", HITMAP_WRONG_ABI_PLUGIN, "run", "page-counter-charge", "--threads",
                 "1", "--iterations", "10", "--c2c", "off", "--db", db.string()},
                dir.path());
    EXPECT_EQ(r.status, 1);
    EXPECT_THAT(r.err, HasSubstr("built for plugin ABI 9999, this hitmap has ABI 3"));
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(db));
}

TEST(Plugin, ALibraryWithoutEntryPointsOrNoFileIsRefused) {
    TempDir dir;
    const CliResult not_plugin = run_cli({"--plugin", HITMAP_NOT_A_PLUGIN, "list"}, dir.path());
    EXPECT_EQ(not_plugin.status, 1);
    EXPECT_THAT(not_plugin.err, HasSubstr("not a hitmap plugin"));
    const CliResult missing = run_cli({"--plugin", (dir / "nope.so").string(), "list"}, dir.path());
    EXPECT_EQ(missing.status, 1);
    EXPECT_THAT(missing.err, HasSubstr("no such file"));
    // A text file is not a shared library.
    const auto text = dir / "text.so";
    std::ofstream(text) << "not ELF\n";
    const CliResult garbage = run_cli({"--plugin", text.string(), "list"}, dir.path());
    EXPECT_EQ(garbage.status, 1);
    EXPECT_THAT(garbage.err, HasSubstr("not an ELF shared library"));
}

TEST(Plugin, LoadingTheSamePluginTwiceIsRefused) {
    TempDir dir;
    const CliResult r = run_cli({"--plugin", kExample, "--plugin", kExample, "list"}, dir.path());
    EXPECT_EQ(r.status, 1);
    EXPECT_THAT(r.err, HasSubstr("exists already"));
}

TEST(Plugin, ARegistrationThatThrowsAnythingIsRefusedInOneLine) {
    TempDir dir;
    const CliResult r = run_cli({"--plugin", HITMAP_THROW_ON_REGISTER_PLUGIN, "list"}, dir.path());
    EXPECT_EQ(r.status, 1) << r.err; // not 134: std::terminate
    EXPECT_THAT(r.err, HasSubstr("registration failed: it threw something that is not a "
                                 "std::exception"));
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
}

// Thrown from run() and from a worker, on real threads and on a simulated machine's fibers: the
// run is stored as failed with the reason, and the process exits with the run's failure.
TEST(Plugin, AWorkloadThatThrowsAnythingFailsItsRunInsteadOfTheProcess) {
    TempDir dir;
    const auto db = (dir / "t.db").string();
    const std::vector<std::vector<std::string>> ways = {
        {"--variant", "in-run"},
        {"--variant", "in-worker"},
        {"--variant", "in-worker", "--simulate", "xeon-2s-72", "--calibration-ops", "2000"}};
    for (const auto& way : ways) {
        std::vector<std::string> args{"--plugin",     HITMAP_THROWING_PLUGIN,
                                      "run",          "throws-anything",
                                      "--threads",    "2",
                                      "--iterations", "10",
                                      "--db",         db};
        args.insert(args.end(), way.begin(), way.end());
        const CliResult r = run_cli(args, dir.path());
        EXPECT_EQ(r.status, 1) << way[1] << ": " << r.err;
        EXPECT_THAT(r.out, HasSubstr("FAILED: workload throws-anything (from a plugin) threw "
                                     "something that is not a std::exception"))
            << way[1];
    }
    const nlohmann::json runs = show_json(db, dir);
    ASSERT_EQ(runs.size(), ways.size()) << runs.dump();
    for (const auto& run : runs)
        EXPECT_EQ(run["status"], "failed") << run.dump();
}

// The example plugin with its ELF header or its length changed, as a damaged download or a
// library of another machine would be. Each must be refused in one line or load as the whole
// file does; dlopen must never be handed a file whose segments run past its end (SIGBUS).
class DamagedPlugin {
public:
    DamagedPlugin() {
        std::ifstream in(kExample, std::ios::binary);
        image_.assign(std::istreambuf_iterator<char>(in), {});
    }
    const std::vector<char>& image() const { return image_; }
    Elf64_Ehdr header() const {
        Elf64_Ehdr h;
        std::memcpy(&h, image_.data(), sizeof h);
        return h;
    }
    // The end of each segment's bytes in the file.
    std::vector<std::size_t> segment_ends() const {
        const Elf64_Ehdr h = header();
        std::vector<std::size_t> ends;
        for (unsigned i = 0; i < h.e_phnum; ++i) {
            Elf64_Phdr p;
            std::memcpy(&p, image_.data() + h.e_phoff + i * h.e_phentsize, sizeof p);
            ends.push_back(p.p_offset + p.p_filesz);
        }
        return ends;
    }

private:
    std::vector<char> image_;
};

CliResult load(const TempDir& dir, const std::string& name, const std::vector<char>& bytes) {
    const auto file = dir / name;
    std::ofstream(file, std::ios::binary | std::ios::trunc)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return run_cli({"--plugin", file.string(), "list"}, dir.path());
}

TEST(Plugin, ATruncatedLibraryIsRefusedBeforeDlopenMapsIt) {
    TempDir dir;
    const DamagedPlugin plugin;
    const CliResult r =
        load(dir, "cut.so", {plugin.image().begin(), plugin.image().begin() + 3000});
    EXPECT_EQ(r.status, 1) << r.err; // was 135: SIGBUS inside dlopen
    EXPECT_THAT(r.err, HasSubstr("truncated or damaged"));
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
}

// A 176-byte ET_DYN for this machine whose one PT_LOAD covers it and whose PT_DYNAMIC is empty:
// it passes the header check, and the dynamic loader dies on it with SIGSEGV. Loading it in a
// child first keeps hitmap alive.
TEST(Plugin, ALibraryThatCrashesTheDynamicLoaderIsRefused) {
    TempDir dir;
    constexpr std::size_t kSize = sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr) + 16;
    std::vector<char> image(kSize);
    Elf64_Ehdr h{};
    std::memcpy(h.e_ident, ELFMAG, SELFMAG);
    h.e_ident[EI_CLASS] = ELFCLASS64;
    h.e_ident[EI_DATA] = ELFDATA2LSB;
    h.e_ident[EI_VERSION] = EV_CURRENT;
    h.e_type = ET_DYN;
    h.e_machine = EM_X86_64;
    h.e_version = EV_CURRENT;
    h.e_phoff = sizeof h;
    h.e_ehsize = sizeof h;
    h.e_phentsize = sizeof(Elf64_Phdr);
    h.e_phnum = 2;
    const Elf64_Phdr segment{PT_LOAD, PF_R, 0, 0, 0, kSize, kSize, 0x1000};
    const Elf64_Phdr dynamic{PT_DYNAMIC, PF_R, kSize - 16, kSize - 16, kSize - 16, 16, 16, 8};
    std::memcpy(image.data(), &h, sizeof h);
    std::memcpy(image.data() + sizeof h, &segment, sizeof segment);
    std::memcpy(image.data() + sizeof h + sizeof segment, &dynamic, sizeof dynamic);
    const CliResult r = load(dir, "crafted.so", image);
    EXPECT_EQ(r.status, 1) << r.err; // was 139
    EXPECT_THAT(r.err, HasSubstr("loading it crashed a trial process"));
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
}

TEST(Plugin, ALibraryForAnotherMachineSaysSo) {
    TempDir dir;
    const DamagedPlugin plugin;
    std::vector<char> bytes = plugin.image();
    const std::uint16_t aarch64 = EM_AARCH64;
    std::memcpy(bytes.data() + offsetof(Elf64_Ehdr, e_machine), &aarch64, sizeof aarch64);
    const CliResult r = load(dir, "arm.so", bytes);
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_THAT(r.err, HasSubstr("built for aarch64 (64-bit, little-endian); this hitmap runs on "
                                 "x86_64 (64-bit, little-endian)"));
    EXPECT_THAT(r.err, ::testing::Not(HasSubstr("No such file")));
}

// Mutations: cuts at every segment's end (one byte short and exact), at spread-out lengths, and
// header fields set to values of other classes, machines, types and impossible table places.
TEST(Plugin, DamagedOrForeignLibrariesNeverCrashTheLoader) {
    TempDir dir;
    const DamagedPlugin plugin;
    const std::vector<char>& whole = plugin.image();
    std::vector<std::size_t> cuts = {0, 1, 4, 16, 63, 64, 65, 200, 3000};
    for (const std::size_t end : plugin.segment_ends())
        for (const std::size_t cut : {end - 1, end})
            cuts.push_back(cut);
    for (std::size_t i = 1; i < 24; ++i)
        cuts.push_back(whole.size() * i / 24);
    std::vector<std::pair<std::string, std::vector<char>>> cases;
    for (const std::size_t cut : cuts)
        if (cut < whole.size())
            cases.emplace_back(fmt::format("cut at {}", cut),
                               std::vector<char>(whole.begin(), whole.begin() + cut));
    auto with = [&](const std::string& what, std::size_t offset, auto value) {
        std::vector<char> bytes = whole;
        std::memcpy(bytes.data() + offset, &value, sizeof value);
        cases.emplace_back(what, std::move(bytes));
    };
    with("32-bit class", EI_CLASS, std::uint8_t{ELFCLASS32});
    with("big-endian", EI_DATA, std::uint8_t{ELFDATA2MSB});
    with("no class", EI_CLASS, std::uint8_t{0});
    with("ET_EXEC", offsetof(Elf64_Ehdr, e_type), std::uint16_t{ET_EXEC});
    with("ET_REL", offsetof(Elf64_Ehdr, e_type), std::uint16_t{ET_REL});
    with("riscv", offsetof(Elf64_Ehdr, e_machine), std::uint16_t{EM_RISCV});
    with("phoff past the end", offsetof(Elf64_Ehdr, e_phoff), std::uint64_t{1} << 40);
    with("phoff near the end", offsetof(Elf64_Ehdr, e_phoff), std::uint64_t{whole.size() - 8});
    with("no program headers", offsetof(Elf64_Ehdr, e_phnum), std::uint16_t{0});
    with("65535 program headers", offsetof(Elf64_Ehdr, e_phnum), std::uint16_t{0xffff});
    with("small phentsize", offsetof(Elf64_Ehdr, e_phentsize), std::uint16_t{8});
    const Elf64_Ehdr h = plugin.header();
    for (unsigned i = 0; i < h.e_phnum; ++i) {
        const std::size_t at = h.e_phoff + i * h.e_phentsize;
        with(fmt::format("segment {} offset past the end", i), at + offsetof(Elf64_Phdr, p_offset),
             std::uint64_t{whole.size()});
        with(fmt::format("segment {} size wraps", i), at + offsetof(Elf64_Phdr, p_filesz),
             ~std::uint64_t{0});
    }
    // Bytes flipped in the headers and the dynamic section's neighbourhood (a fixed seed: the
    // same cases every run).
    std::mt19937 random(32);
    for (int i = 0; i < 120; ++i) {
        std::vector<char> bytes = whole;
        const std::size_t flips = 1 + random() % 4;
        for (std::size_t f = 0; f < flips; ++f)
            bytes[random() % std::min<std::size_t>(bytes.size(), 4096)] ^=
                static_cast<char>(1 + random() % 255);
        cases.emplace_back(fmt::format("random flips {}", i), std::move(bytes));
    }
    int refused = 0;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const auto& [what, bytes] = cases[i];
        const CliResult r = load(dir, fmt::format("m{}.so", i), bytes);
        // 0: the damage was outside what dlopen reads (section headers, debug information).
        ASSERT_TRUE(r.status == 0 || r.status == 1)
            << what << ": exit " << r.status << " " << r.err;
        if (r.status == 1) {
            ++refused;
            EXPECT_EQ(count_lines(r.err), 1) << what << ": " << r.err;
            EXPECT_THAT(r.err, HasSubstr("plugin ")) << what;
        }
    }
    EXPECT_GT(refused, 30) << cases.size() << " cases";
}

} // namespace
} // namespace hitmap::testing
