#include "collector/sim/machine_description.hpp"

#include "collector/c2c/coherence_model.hpp"
#include "collector/sim/errors.hpp"
#include "collector/sim/host_machine.hpp"
#include "collector/support/text_file.hpp"

#include <fmt/format.h>

namespace hitmap::sim {

CpuPlace place_of(const MachineDescription& m, unsigned cpu) {
    const unsigned cores = m.sockets * m.cores_per_socket;
    CpuPlace p;
    p.thread = cpu / cores;
    p.socket = (cpu % cores) / m.cores_per_socket;
    p.core = cpu % m.cores_per_socket;
    p.llc_group = p.core / (m.cores_per_socket / m.llc_groups_per_socket);
    return p;
}

Distance distance(const MachineDescription& m, unsigned a, unsigned b) {
    if (a == b)
        return Distance::same_cpu;
    const CpuPlace pa = place_of(m, a), pb = place_of(m, b);
    if (pa.socket != pb.socket)
        return Distance::remote_socket;
    if (pa.core == pb.core)
        return Distance::smt_sibling;
    return pa.llc_group == pb.llc_group ? Distance::same_llc : Distance::same_socket;
}

double transfer_ns(const MachineDescription& m, Distance d) {
    switch (d) {
    case Distance::same_cpu:
        return m.latency.l1_hit;
    case Distance::smt_sibling:
        return m.latency.smt_sibling;
    case Distance::same_llc:
        return m.latency.same_llc;
    case Distance::same_socket:
        return m.latency.same_socket;
    case Distance::remote_socket:
        return m.latency.remote_socket;
    }
    return m.latency.remote_socket;
}

nlohmann::json machine_to_json(const MachineDescription& m) {
    nlohmann::json j = {
        {"name", m.name},
        {"description", m.description},
        {"sockets", m.sockets},
        {"cores_per_socket", m.cores_per_socket},
        {"threads_per_core", m.threads_per_core},
        {"llc_groups_per_socket", m.llc_groups_per_socket},
        {"line_size", m.line_size},
        {"ghz", m.ghz},
        {"latency_ns",
         {{"l1_hit", m.latency.l1_hit},
          {"smt_sibling", m.latency.smt_sibling},
          {"same_llc", m.latency.same_llc},
          {"same_socket", m.latency.same_socket},
          {"remote_socket", m.latency.remote_socket},
          {"dram", m.latency.dram},
          {"dram_remote", m.latency.dram_remote},
          {"l2_hit", m.latency.l2_hit},
          {"llc_hit", m.latency.llc_hit},
          {"invalidate_per_sharer", m.latency.invalidate_per_sharer},
          {"hold", m.latency.hold}}},
        {"latency_source", m.latency_source},
    };
    if (m.caches)
        j["caches"] = {{"l1d_kib", m.caches->l1d_kib},
                       {"l2_kib", m.caches->l2_kib},
                       {"llc_kib", m.caches->llc_kib},
                       {"outstanding_misses", m.caches->outstanding_misses}};
    return j;
}

namespace {

// Reads the keys of one JSON object, refusing unknown ones and wrong types.
class Reader {
public:
    Reader(const nlohmann::json& j, std::string_view source, std::string prefix)
        : j_(j)
        , source_(source)
        , prefix_(std::move(prefix)) {
        if (!j.is_object())
            fail(prefix_.empty() ? "the description" : prefix_, "is not a JSON object");
    }
    unsigned count(const char* key, unsigned lo, unsigned hi, unsigned fallback) {
        const nlohmann::json* v = find(key);
        if (!v)
            return fallback;
        if (!v->is_number_integer() || v->get<std::int64_t>() < lo || v->get<std::int64_t>() > hi)
            fail(key, fmt::format("must be an integer in {}..{}", lo, hi));
        return v->get<unsigned>();
    }
    double number(const char* key, double fallback, bool positive = false) {
        const nlohmann::json* v = find(key);
        if (!v)
            return fallback;
        if (!v->is_number() || v->get<double>() < 0 || (positive && v->get<double>() == 0))
            fail(key, positive ? "must be a number above 0" : "must be a number >= 0");
        return v->get<double>();
    }
    std::string text(const char* key, std::string fallback) {
        const nlohmann::json* v = find(key);
        if (!v)
            return fallback;
        if (!v->is_string())
            fail(key, "must be a string");
        return v->get<std::string>();
    }
    const nlohmann::json* object(const char* key) { return find(key); }
    void done() const {
        for (const auto& item : j_.items())
            if (std::find(seen_.begin(), seen_.end(), item.key()) == seen_.end())
                fail(item.key(), "is not a machine description key");
    }
    [[noreturn]] void fail(std::string_view key, std::string_view what) const {
        throw MachineError(fmt::format("{}: {}{} {}", source_, prefix_, key, what));
    }

private:
    const nlohmann::json* find(const char* key) {
        seen_.emplace_back(key);
        const auto it = j_.find(key);
        return it == j_.end() ? nullptr : &*it;
    }

    const nlohmann::json& j_;
    std::string_view source_;
    std::string prefix_;
    std::vector<std::string> seen_;
};

} // namespace

MachineDescription machine_from_json(const nlohmann::json& j, std::string_view source) {
    Reader r(j, source, "");
    MachineDescription m;
    m.name = r.text("name", "");
    if (m.name.empty())
        r.fail("name", "is missing or empty");
    m.description = r.text("description", "");
    m.sockets = r.count("sockets", 1, 16, 1);
    m.cores_per_socket = r.count("cores_per_socket", 1, c2c::kMaxCpus, 1);
    m.threads_per_core = r.count("threads_per_core", 1, 8, 1);
    m.llc_groups_per_socket = r.count("llc_groups_per_socket", 1, c2c::kMaxCpus, 1);
    m.line_size = r.count("line_size", 64, 128, 64);
    m.ghz = r.number("ghz", m.ghz, true);
    m.latency_source = r.text("latency_source", "");
    if (const nlohmann::json* lat = r.object("latency_ns")) {
        Reader l(*lat, source, "latency_ns.");
        LatencyNs& t = m.latency;
        t.l1_hit = l.number("l1_hit", t.l1_hit);
        t.smt_sibling = l.number("smt_sibling", t.smt_sibling);
        t.same_llc = l.number("same_llc", t.same_llc);
        t.same_socket = l.number("same_socket", t.same_socket);
        t.remote_socket = l.number("remote_socket", t.remote_socket);
        t.dram = l.number("dram", t.dram);
        t.dram_remote = l.number("dram_remote", t.dram_remote);
        t.l2_hit = l.number("l2_hit", t.l2_hit);
        t.llc_hit = l.number("llc_hit", t.llc_hit);
        t.invalidate_per_sharer = l.number("invalidate_per_sharer", t.invalidate_per_sharer);
        t.hold = l.number("hold", t.hold);
        l.done();
    }
    if (const nlohmann::json* caches = r.object("caches")) {
        Reader c(*caches, source, "caches.");
        m.caches = CacheCapacities{
            c.count("l1d_kib", 1, 1u << 20, 32), c.count("l2_kib", 1, 1u << 20, 1024),
            c.count("llc_kib", 1, 1u << 22, 32768), c.count("outstanding_misses", 1, 64, 10)};
        c.done();
    }
    r.done();
    if (m.line_size != 64 && m.line_size != 128)
        r.fail("line_size", "must be 64 or 128");
    if (m.cores_per_socket % m.llc_groups_per_socket != 0)
        r.fail("llc_groups_per_socket", "must divide cores_per_socket");
    if (m.cpus() > c2c::kMaxCpus)
        r.fail("sockets", fmt::format("x cores_per_socket x threads_per_core is {} CPUs; the model "
                                      "holds at most {}",
                                      m.cpus(), c2c::kMaxCpus));
    return m;
}

namespace {

// An Intel Xeon of the Skylake-SP mesh family (Cascade Lake, Cooper Lake): every socket one
// UPI hop from every other, so one figure prices every remote transfer.
MachineDescription intel_xeon(std::string name, std::string description, unsigned sockets,
                              unsigned cores, double within_ns, double across_ns, std::string cpu) {
    MachineDescription m;
    m.name = std::move(name);
    m.description = std::move(description);
    m.sockets = sockets;
    m.cores_per_socket = cores;
    m.threads_per_core = 2;
    m.llc_groups_per_socket = 1; // one mesh-connected LLC per socket
    m.ghz = 2.8;
    m.latency.same_llc = m.latency.same_socket = within_ns;
    m.latency.remote_socket = across_ns;
    m.latency_source = fmt::format(
        "same/other socket: {} one-way CAS handoff, nviennot/core-to-core-latency README @96a943ac "
        "(reference/detectors.md §2.3); per-sharer invalidation from ccbench (David et al., SOSP "
        "2013: 445 vs 116 cycles for 80 vs 1 sharers at 2.13 GHz); L1 4 cycles; L2 14 cycles, "
        "LLC 21 ns, 12 fill buffers; SMT sibling, DRAM (local and remote) and the 5 ns hold are "
        "typical values, not measured",
        cpu);
    m.latency.l2_hit = 5;
    m.latency.llc_hit = 21;
    m.caches = CacheCapacities{32, 1024, cores * 1408, 12}; // 1.375 MiB of LLC per core
    return m;
}

} // namespace

const std::vector<MachineDescription>& builtin_machines() {
    static const std::vector<MachineDescription> all = [] {
        std::vector<MachineDescription> v;
        v.push_back(intel_xeon("xeon-2s-72",
                               "72 CPUs, 2 sockets x 18 cores x 2 threads: the machine of seed "
                               "001 (the seed gives only the CPU count; a Cascade Lake Xeon is "
                               "assumed)",
                               2, 18, 47, 134, "Xeon Platinum 8275CL (Cascade Lake)"));
        v.push_back(intel_xeon("cascadelake-2s-96",
                               "96 CPUs, 2-socket Cascade Lake, 2 x 24 cores x 2 threads: the "
                               "machine of seed 000",
                               2, 24, 48, 136, "Xeon Gold 6242 (Cascade Lake)"));
        MachineDescription epyc;
        epyc.name = "epyc-2s-256";
        epyc.description = "256 CPUs, 2 sockets x 64 cores x 2 threads, 8-core CCXs: the CPU count "
                           "of seed 002 (the seed does not name the CPU; an EPYC Milan is assumed)";
        epyc.sockets = 2;
        epyc.cores_per_socket = 64;
        epyc.threads_per_core = 2;
        epyc.llc_groups_per_socket = 8;
        epyc.ghz = 2.45;
        epyc.latency.same_llc = 23;
        epyc.latency.same_socket = 100;
        epyc.latency.remote_socket = 197;
        epyc.latency.dram = 110;
        epyc.latency.dram_remote = 190;
        epyc.latency.l2_hit = 4;
        epyc.latency.llc_hit = 14;
        epyc.latency_source =
            "EPYC 7R13 (Milan) one-way CAS handoff: 23 ns within a CCX, 90-110 ns across CCXs, "
            "197 ns across sockets, nviennot/core-to-core-latency README @96a943ac "
            "(reference/detectors.md §2.3); L1, L2 (12 cycles), L3 (46 cycles), 24 outstanding "
            "L1 misses, SMT sibling, DRAM (local and remote), invalidation and hold are typical "
            "values, not measured";
        epyc.caches = CacheCapacities{32, 512, 32768, 24};
        v.push_back(epyc);
        // Seed 001's netperf at twice its CPU count. Cooper Lake (Xeon Platinum 8354H: 18 cores,
        // 24.75 MiB of LLC, six UPI links, so four sockets are fully connected) is Cascade
        // Lake's core and mesh on more links; no core-to-core figure of a Cooper Lake is
        // published in the source the others use, so its Cascade Lake figures stand in.
        MachineDescription cooper = intel_xeon(
            "cooperlake-4s-144",
            "144 CPUs, 4 sockets x 18 cores x 2 threads (Cooper Lake class, every socket one UPI "
            "hop from the others): seed 001's netperf at twice the seed's CPU count",
            4, 18, 47, 134, "Xeon Platinum 8275CL (Cascade Lake)");
        cooper.latency_source =
            "Cooper Lake (Xeon Platinum 8354H) shares Cascade Lake's core, mesh and UPI; its 4 "
            "sockets are fully connected by 6 UPI links, so every remote transfer is one hop. " +
            cooper.latency_source;
        v.push_back(cooper);
        return v;
    }();
    return all;
}

MachineDescription find_machine(std::string_view name_or_path) {
    for (const MachineDescription& m : builtin_machines())
        if (m.name == name_or_path)
            return m;
    if (name_or_path == "host")
        return host_machine();
    const std::filesystem::path path(name_or_path);
    const auto text = support::read_text_file(path);
    if (!text) {
        std::string names;
        for (const MachineDescription& m : builtin_machines())
            names += m.name + ", ";
        throw MachineError(
            fmt::format("unknown machine '{}': not a built-in ({}host) nor a readable JSON file",
                        name_or_path, names));
    }
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(*text);
    } catch (const nlohmann::json::parse_error& e) {
        throw MachineError(fmt::format("{}: not JSON ({})", path.string(), e.what()));
    }
    return machine_from_json(j, path.string());
}

} // namespace hitmap::sim
