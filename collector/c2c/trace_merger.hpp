#pragma once
// k-way merge of per-thread record streams into one global TSC order.
//
// Order: by TSC; equal TSCs by thread id, then by position in the input span, then by position
// in the stream. Each stream's own order always wins, so a backwards TSC step inside one
// stream (e.g. skew after a migration) reorders nothing within it.
//
// Concurrent threads interleave record by record (about 1.3 records per run in a 2-thread
// charge trace), so which stream comes next is unpredictable and a branchy merge pays a
// mispredicted branch per record. This is a loser tree whose replay step is branch-free
// (min/max select per level): log2(k) selects per record and no data-dependent branch.
#include "engine/probe/trace_record.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace hitmap::c2c {

struct ThreadTrace {
    std::uint32_t thread = 0; // thread id, unique within a run
    std::span<const engine::TraceRecord> records;
};

class TraceMerger {
public:
    static constexpr std::size_t kMaxStreams = 1u << 16;

    // Throws ReplayError for kMaxStreams streams or more. The span (and the records it points
    // to) must outlive the merger.
    explicit TraceMerger(std::span<const ThreadTrace> threads);

    // Calls sink(stream_index, record) for every record in global order; stream_index indexes
    // the span given to the constructor.
    template <typename Sink> void merge(Sink&& sink) const;

    std::size_t records() const { return total_; }

private:
    static constexpr std::uint64_t kExhausted = std::numeric_limits<std::uint64_t>::max();

    // A record's merge key: TSC above the stream's rank, so one integer compare orders both
    // and keys of different streams never tie.
    static std::uint64_t key(const engine::TraceRecord& r, std::uint64_t rank) {
        return (r.tsc() << 16) | rank;
    }

    std::span<const ThreadTrace> threads_;
    std::vector<std::uint32_t> stream_of_rank_; // rank = order by (thread id, span index)
    std::size_t total_ = 0;
};

template <typename Sink> void TraceMerger::merge(Sink&& sink) const {
    struct Cursor {
        const engine::TraceRecord* pos;
        const engine::TraceRecord* end;
    };
    const std::size_t streams = stream_of_rank_.size();
    const std::size_t leaves = std::bit_ceil(std::max<std::size_t>(streams, 1));
    std::vector<Cursor> cursors(streams);
    // winner[leaves + rank]: the stream's head key, kExhausted when it has none (and for
    // padding leaves); winner[n] above: the winner of node n's subtree, used only to build.
    // tree[n] (1 <= n < leaves) holds the loser of the match at node n.
    std::vector<std::uint64_t> winner(2 * leaves, kExhausted);
    for (std::uint64_t rank = 0; rank < streams; ++rank) {
        const auto records = threads_[stream_of_rank_[rank]].records;
        cursors[rank] = {records.data(), records.data() + records.size()};
        if (!records.empty())
            winner[leaves + rank] = key(records.front(), rank);
    }
    std::vector<std::uint64_t> tree(leaves, kExhausted);
    for (std::size_t n = leaves - 1; n >= 1; --n) {
        winner[n] = std::min(winner[2 * n], winner[2 * n + 1]);
        tree[n] = std::max(winner[2 * n], winner[2 * n + 1]);
    }
    std::uint64_t top = winner[1];

    for (std::size_t i = 0; i < total_; ++i) {
        const std::uint64_t rank = top & 0xffff;
        Cursor& c = cursors[rank];
        sink(stream_of_rank_[rank], *c.pos);
        ++c.pos;
        std::uint64_t next = c.pos != c.end ? key(*c.pos, rank) : kExhausted;
        for (std::size_t n = (leaves + rank) >> 1; n >= 1; n >>= 1) {
            const std::uint64_t loser = tree[n];
            tree[n] = std::max(loser, next);
            next = std::min(loser, next);
        }
        top = next;
    }
}

} // namespace hitmap::c2c
