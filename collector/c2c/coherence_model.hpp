#pragma once
// MESI state per cache line and the classification of every access against it.
//
// A line is held by a set of model CPUs (private caches). One holder that wrote it is M, one
// that only read it is E, two or more are S. Caches are infinite: a line leaves a cache only
// by invalidation, so "nobody holds it" means "nobody ever touched it" (a cold miss).
//
// For true/false-sharing attribution the model remembers, per byte, which access tag wrote it
// during the current ownership epoch (since the line was last taken for writing). A transfer
// whose bytes overlap bytes written in that epoch is true sharing and is attributed to the
// writer of the first overlapping byte; otherwise it is false sharing, attributed to the
// line's last writer. This is the exact form of "accessor bytes vs last writer's bytes": a
// CPU that RMWs `usage` and then writes `watermark` still truly shares `usage` with the next
// CPU that RMWs `usage`.
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

namespace hitmap::c2c {

enum class AccessClass : std::uint8_t {
    l1_hit,        // the line is already held locally with enough rights
    load_hitm,     // load of a line Modified by another CPU; both end up Shared
    store_hitm,    // store/RMW/CAS of a line Modified by another CPU
    clean_forward, // load of a line held Shared or Exclusive elsewhere, not locally
    store_shared,  // store/RMW/CAS of a line other CPUs hold clean: invalidates each of them
    cold,          // first touch of the line by anyone
};
inline constexpr std::size_t kAccessClassCount = 6;

// Model CPUs are dense indices (first appearance order), so a set stays small.
using CpuIndex = std::uint16_t;
inline constexpr std::uint32_t kMaxCpus = 256;

class CpuSet {
public:
    bool test(CpuIndex c) const { return (words_[c >> 6] >> (c & 63)) & 1u; }
    void set(CpuIndex c) { words_[c >> 6] |= std::uint64_t{1} << (c & 63); }
    void assign_only(CpuIndex c) {
        words_ = {};
        set(c);
    }
    bool none() const { return (words_[0] | words_[1] | words_[2] | words_[3]) == 0; }
    template <class F> void for_each(F&& f) const {
        for (std::size_t w = 0; w < words_.size(); ++w)
            for (std::uint64_t bits = words_[w]; bits; bits &= bits - 1)
                f(static_cast<CpuIndex>(w * 64 + std::countr_zero(bits)));
    }
    std::uint32_t count() const {
        std::uint32_t n = 0;
        for (auto w : words_)
            n += static_cast<std::uint32_t>(std::popcount(w));
        return n;
    }

private:
    std::array<std::uint64_t, kMaxCpus / 64> words_{};
};

struct Outcome {
    static constexpr std::uint32_t kNoWriter = UINT32_MAX;

    AccessClass cls = AccessClass::l1_hit;
    std::uint32_t invalidations = 0;  // store_shared: sharers invalidated (the writer excluded)
    std::uint32_t writer = kNoWriter; // HITM/store_shared: tag of the write it is attributed to
    bool true_sharing = false;
};

inline constexpr CpuIndex kNoCpu = UINT16_MAX;

// A line's state before a miss: who holds it and who owns it (M or E), for a caller that
// prices the miss by where the line comes from.
struct LineView {
    const CpuSet& holders;
    CpuIndex owner; // kNoCpu when Shared or untouched
};

class CoherenceModel {
public:
    CoherenceModel(std::size_t lines, std::uint32_t line_size);

    // One access by `cpu` to bytes [lo, hi) of `line`. `tag` names the accessing (field, line
    // part) for the caller; it is what Outcome::writer reports back for later transfers.
    Outcome access(std::uint32_t line, CpuIndex cpu, bool write, std::uint16_t lo, std::uint16_t hi,
                   std::uint32_t tag) {
        LineState& s = lines_[line];
        if (!hit(s, cpu, write))
            return miss(line, cpu, write, lo, hi, tag);
        if (write) { // M or E here (E -> M silently)
            s.modified = true;
            if (s.last_writer != tag)
                note_write(line, lo, hi, tag);
        }
        return {};
    }

    // Whether the access would hit, without making it; on a miss, on_miss(LineView) sees the
    // line's state (a simulator prices the miss from it before deciding when it happens).
    template <class OnMiss>
    bool hits(std::uint32_t line, CpuIndex cpu, bool write, OnMiss&& on_miss) const {
        const LineState& s = lines_[line];
        if (hit(s, cpu, write))
            return true;
        on_miss(LineView{s.holders, s.owner});
        return false;
    }

private:
    static constexpr CpuIndex kNoOwner = kNoCpu;

    struct LineState {
        CpuSet holders;
        std::uint32_t last_writer = Outcome::kNoWriter;
        CpuIndex owner = kNoOwner; // the holder in M or E; kNoOwner when Shared or untouched
        bool modified = false;
    };

    // A write needs the line in M or E here; a load needs any copy here.
    static bool hit(const LineState& s, CpuIndex cpu, bool write) {
        return write ? s.owner == cpu : s.holders.test(cpu);
    }
    Outcome miss(std::uint32_t line, CpuIndex cpu, bool write, std::uint16_t lo, std::uint16_t hi,
                 std::uint32_t tag);
    void attribute(Outcome& out, std::uint32_t line, std::uint16_t lo, std::uint16_t hi) const;
    void note_write(std::uint32_t line, std::uint16_t lo, std::uint16_t hi, std::uint32_t tag);

    std::uint32_t line_size_;
    std::vector<LineState> lines_;
    std::vector<std::uint32_t> byte_writer_; // [line * line_size + byte]: tag, this epoch
};

} // namespace hitmap::c2c
