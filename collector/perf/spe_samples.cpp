#include "collector/perf/spe_samples.hpp"

#include <linux/perf_event.h>

namespace hitmap::perf {

SampleBatch spe_sample_batch(const AuxBatch& aux, SpeDataSourceEncoding encoding) {
    SampleBatch batch;
    static_cast<RecordCounts&>(batch) = aux; // the ring's counts; SPE's own are added below
    for (const AuxChunk& chunk : aux.chunks) {
        const AuxRecord& from = chunk.record;
        SpeDecode decoded = decode_spe_records(chunk.bytes, from.offset);
        batch.lost_samples += decoded.dropped_records;
        // drivers/perf/arm_spe_pmu.c flags PARTIAL when the hardware lost data: the chunk's
        // last record is corrupt. Cut off, it was dropped above; complete-looking, it goes now.
        if ((from.flags & PERF_AUX_FLAG_PARTIAL) && !decoded.cut_at_end &&
            !decoded.records.empty()) {
            decoded.records.pop_back();
            ++batch.lost_samples;
        }
        if (from.flags & PERF_AUX_FLAG_COLLISION)
            ++batch.lost_samples;
        if (aux_lost_data(from))
            ++batch.lost_records;
        for (const SpeRecord& record : decoded.records) {
            std::optional<MemorySample> sample = spe_memory_sample(record, encoding);
            if (!sample) {
                ++batch.other_records;
                continue;
            }
            sample->pid = from.context.pid;
            sample->tid = from.context.tid;
            sample->time = from.context.time;
            sample->cpu = from.context.cpu;
            batch.samples.push_back(*sample);
        }
    }
    return batch;
}

} // namespace hitmap::perf
