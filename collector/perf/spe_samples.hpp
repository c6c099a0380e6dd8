#pragma once
// Arm SPE's AUX chunks as MemorySamples: each chunk decoded into records (spe_records.hpp),
// loads and stores mapped to perf_mem_data_src (spe_data_source.hpp), and the thread, CPU and
// time of the PERF_RECORD_AUX that delivered them. Pure.
#include "collector/perf/aux_records.hpp"
#include "collector/perf/sample_records.hpp"
#include "collector/perf/spe_data_source.hpp"

namespace hitmap::perf {

// The batch of `aux`:
// - samples: loads and stores with a data address; time is when the kernel closed the chunk
//   (the AUX record's, CLOCK_MONOTONIC like the other facilities), not SPE's own timestamp,
//   which counts generic timer ticks.
// - lost_samples: PERF_RECORD_LOST's, plus SPE records known lost: cut or corrupt ones, the
//   last record of a PARTIAL chunk (the driver flags it corrupt), one per COLLISION.
// - lost_records: PERF_RECORD_LOST records plus chunks whose flags say data was lost
//   (aux_lost_data); after a TRUNCATED chunk the operations until the area had room again were
//   not sampled, a number nobody knows.
// - other_records: the ring's other records plus SPE records that are no load or store with
//   an address (branches and other operations, when the filters let them through).
SampleBatch spe_sample_batch(const AuxBatch& aux, SpeDataSourceEncoding encoding);

} // namespace hitmap::perf
