#include "collector/c2c/trace_merger.hpp"

#include "collector/c2c/errors.hpp"

#include <fmt/format.h>
#include <numeric>

namespace hitmap::c2c {

TraceMerger::TraceMerger(std::span<const ThreadTrace> threads)
    : threads_(threads) {
    // One rank is left for kExhausted's low bits, so no live key can equal it.
    if (threads.size() >= kMaxStreams)
        throw ReplayError(fmt::format("{} thread traces exceed the merge limit of {}",
                                      threads.size(), kMaxStreams - 1));
    stream_of_rank_.resize(threads.size());
    std::iota(stream_of_rank_.begin(), stream_of_rank_.end(), 0u);
    std::stable_sort(
        stream_of_rank_.begin(), stream_of_rank_.end(),
        [&](std::uint32_t a, std::uint32_t b) { return threads[a].thread < threads[b].thread; });
    for (const ThreadTrace& t : threads)
        total_ += t.records.size();
}

} // namespace hitmap::c2c
