#include "collector/perf/sampler.hpp"

#include "collector/perf/aux_records.hpp"
#include "collector/perf/errors.hpp"
#include "collector/perf/perf_syscall.hpp"
#include "collector/perf/pmu_format.hpp"
#include "collector/perf/spe_pmu.hpp"
#include "collector/perf/spe_samples.hpp"
#include "collector/perf/sysfs.hpp"

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <fmt/format.h>
#include <linux/perf_event.h>

namespace hitmap::perf {

namespace {

perf_event_attr sampling_attr(std::uint32_t type, const RawEventConfig& config,
                              const MemorySamplerOptions& options) {
    perf_event_attr attr{};
    attr.size = sizeof(attr);
    attr.type = type;
    attr.config = config.config;
    attr.config1 = config.config1;
    attr.config2 = config.config2;
    attr.sample_type = memory_sample_type();
    attr.freq = 1;
    attr.sample_freq = options.frequency_hz;
    attr.disabled = 1;
    // Sample times comparable with std::chrono::steady_clock rather than perf's local clock.
    attr.use_clockid = 1;
    attr.clockid = CLOCK_MONOTONIC;
    return attr;
}

// Like perf's :P, the highest precise_ip the PMU accepts; mem-loads needs at least 1 (PEBS).
support::UniqueFd open_precise(perf_event_attr attr, pid_t tid, int group_fd,
                               std::string_view what) {
    OpenResult opened;
    for (unsigned precise = 3; precise >= 1; --precise) {
        attr.precise_ip = precise;
        opened = open_event(attr, tid, -1, group_fd);
        if (opened.fd || (opened.error != EINVAL && opened.error != EOPNOTSUPP))
            break;
    }
    if (!opened.fd)
        throw_errno(what, opened.error);
    return std::move(opened.fd);
}

std::string sysfs_event(const std::string& pmu, const char* event) {
    const auto terms = read_first_line(pmu_directory(pmu) / "events" / event);
    if (!terms)
        throw PerfUnsupported(fmt::format("{}/{}/: not described in sysfs", pmu, event));
    return *terms;
}

// SPE writes no PERF_RECORD_SAMPLE: the ring carries PERF_RECORD_AUX, whose sample_id trailer
// (attr.sample_id_all) says which thread, CPU and time its chunk belongs to.
constexpr std::uint64_t spe_sample_id_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;

} // namespace

std::uint64_t memory_sample_type() {
    return PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
           PERF_SAMPLE_CPU | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC;
}

MemorySampler::MemorySampler(const PmuCapabilities& pmu, MemorySamplerOptions options)
    : facility_(pmu.memory_sampling()) {
    switch (facility_) {
    case MemorySampling::intel_pebs:
        open_intel(pmu, options);
        break;
    case MemorySampling::amd_ibs:
        open_amd(pmu, options);
        break;
    case MemorySampling::arm_spe:
        open_arm(pmu, options);
        break;
    case MemorySampling::none:
        throw PerfUnsupported(
            "precise memory sampling: no cpu/mem-loads event, ibs_op or arm_spe PMU in "
            "/sys/bus/event_source/devices (typical in a VM without a virtual PMU)");
    }
}

void MemorySampler::open_intel(const PmuCapabilities& pmu, const MemorySamplerOptions& options) {
    // On hybrid parts this is cpu_core: a thread is sampled only while on a P-core.
    const std::string& name = *pmu.intel_mem_pmu;
    const auto type = pmu_type(name);
    if (!type)
        throw PerfUnsupported(fmt::format("{}: no PMU type in sysfs", name));
    const PmuFormat format = PmuFormat::load(pmu_directory(name));
    // User space only: the contention we measure is in user code, and it keeps working at
    // perf_event_paranoid 2 without privileges.
    auto user_only = [](perf_event_attr attr) {
        attr.exclude_kernel = 1;
        attr.exclude_hv = 1;
        return attr;
    };

    int group_fd = -1;
    if (pmu.intel_mem_loads_aux) {
        // Sapphire Rapids-class cores only deliver a data source when the load-latency event is
        // grouped behind mem-loads-aux. Its own count is irrelevant, so it is a plain counter
        // (no samples of its own to filter out of the ring).
        perf_event_attr aux{};
        aux.size = sizeof(aux);
        aux.type = *type;
        aux.config = format.encode(sysfs_event(name, "mem-loads-aux")).config;
        aux.disabled = 1;
        OpenResult opened = open_event(user_only(aux), options.tid, -1, -1);
        if (!opened.fd)
            throw_errno(name + "/mem-loads-aux/", opened.error);
        group_fd = opened.fd.get();
        leaders_.push_back(std::move(opened.fd));
    }

    const RawEventConfig loads = format.encode(
        fmt::format("{},ldlat={}", sysfs_event(name, "mem-loads"), options.load_latency_cycles));
    perf_event_attr loads_attr = user_only(sampling_attr(*type, loads, options));
    loads_attr.disabled = group_fd < 0 ? 1 : 0;
    support::UniqueFd loads_fd =
        open_precise(loads_attr, options.tid, group_fd,
                     fmt::format("{}/mem-loads,ldlat={}/", name, options.load_latency_cycles));
    ring_.emplace(loads_fd.get(), options.ring_pages);
    const int ring_fd = loads_fd.get();
    (group_fd < 0 ? leaders_ : members_).push_back(std::move(loads_fd));

    if (pmu.intel_mem_stores) {
        const RawEventConfig stores = format.encode(sysfs_event(name, "mem-stores"));
        support::UniqueFd stores_fd = open_precise(user_only(sampling_attr(*type, stores, options)),
                                                   options.tid, -1, name + "/mem-stores/");
        event_ioctl(stores_fd.get(), PERF_EVENT_IOC_SET_OUTPUT, static_cast<unsigned long>(ring_fd),
                    "redirect mem-stores into the mem-loads ring");
        leaders_.push_back(std::move(stores_fd));
    }
}

void MemorySampler::open_amd(const PmuCapabilities& pmu, const MemorySamplerOptions& options) {
    // IBS tags every op and cannot filter by privilege level (no exclude_* bits); per-thread
    // IBS needs Linux 6.2, older kernels answer EINVAL.
    const perf_event_attr attr = sampling_attr(*pmu.ibs_op_type, RawEventConfig{}, options);
    OpenResult opened = open_event(attr, options.tid, -1, -1);
    if (!opened.fd)
        throw_errno("ibs_op// (per-thread IBS needs Linux 6.2+)", opened.error);
    ring_.emplace(opened.fd.get(), options.ring_pages);
    leaders_.push_back(std::move(opened.fd));
}

void MemorySampler::open_arm(const PmuCapabilities& pmu, const MemorySamplerOptions& options) {
    const std::string& name = *pmu.arm_spe_pmu;
    const SpeEventSetup setup = spe_event_setup(name);
    perf_event_attr attr = sampling_attr(setup.type, setup.config, options);
    // drivers/perf/arm_spe_pmu.c refuses frequency mode: SPE picks one operation in
    // sample_period (and counts none of them as an overflow the kernel could adjust).
    attr.freq = 0;
    attr.sample_period = setup.sample_period;
    attr.sample_type = spe_sample_id_type;
    attr.sample_id_all = 1;
    // User space only, as for Intel; SPE honours exclude_kernel (PMSCR_EL1.E1SPE clear).
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    // Opened disabled and enabled once the AUX area is mapped, as the driver asks of
    // per-task events.
    OpenResult opened = open_event(attr, options.tid, -1, -1);
    if (!opened.fd)
        throw_errno(fmt::format("{}/ts_enable=1,jitter=1,load_filter=1,store_filter=1/", name),
                    opened.error);
    // The ring holds only PERF_RECORD_AUX and the like, 56 bytes per AUX chunk: a few pages
    // hold hundreds, and the locked-memory budget (perf_event_mlock_kb) goes to the AUX area.
    ring_.emplace(opened.fd.get(), std::min<std::size_t>(options.ring_pages, 4));
    aux_.emplace(opened.fd.get(), *ring_, options.aux_pages);
    spe_encoding_ = setup.encoding;
    leaders_.push_back(std::move(opened.fd));
}

void MemorySampler::enable() {
    for (const support::UniqueFd& fd : leaders_)
        event_ioctl(fd.get(), PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP, "enable memory sampling");
    enabled_ = true;
}

void MemorySampler::disable() {
    for (const support::UniqueFd& fd : leaders_)
        event_ioctl(fd.get(), PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP,
                    "disable memory sampling");
    enabled_ = false;
}

SampleBatch MemorySampler::drain() {
    return aux_ ? drain_spe() : ring_->drain(memory_sample_type());
}

SampleBatch MemorySampler::drain_spe() {
    AuxBatch aux;
    try {
        ring_->consume([&](std::span<const std::byte> ring, std::uint64_t tail,
                           std::uint64_t head) {
            aux = parse_aux_ring(ring, tail, head, aux_->bytes(), aux_->tail(), spe_sample_id_type);
        });
    } catch (const PerfCorruptRecord&) {
        // The chunks the unreadable records announced are lost with them; hand the whole area
        // back so that it does not fill up and stop sampling.
        aux_->release(aux_->head());
        throw;
    }
    aux_->release(aux.end);
    // A full AUX area makes the kernel disable the event (perf_aux_output_end() on
    // TRUNCATED); there is room again now, so sampling resumes.
    const bool truncated = std::ranges::any_of(aux.chunks, [](const AuxChunk& chunk) {
        return (chunk.record.flags & PERF_AUX_FLAG_TRUNCATED) != 0;
    });
    if (truncated && enabled_)
        enable();
    return spe_sample_batch(aux, spe_encoding_);
}

} // namespace hitmap::perf
