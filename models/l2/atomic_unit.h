// An L2 slice's atomic unit: when the lane operations of an atomic request are done.
//
// A request is one line of one wave instruction (the L1 coalescer's): `ops` active lanes, of which at
// most `same` fall on one address (the line's busiest word, `word`). Lanes on distinct addresses go
// together in one pass over the line's sectors; lanes on one address cannot, each pass takes one of
// them, so a request makes `same` passes. The H200 shows both (validation/results/h200-atomics: the L1
// sends 32 sectors an instruction when a warp's lanes share one address, 4 when they cover a line):
//   - the unit is busy `sector_cycles` for each sector a pass touches: the first pass all the
//     request's sectors, each further pass those of the words that still have lanes (one sector where
//     only the busiest word has: the L1's rounds, models/l1/atomic_lanes.h); requests to other lines
//     and words use the time the busy word's chain leaves (they interleave);
//   - two operations on one address are `same_address_cycles` apart (each reads the result of the
//     one before), within a request and from one request to the next.
// In order (`l2.atomic_order = in_order`), a request whose busiest word's chain has not let its first
// operation go holds the unit until it does: the unit takes requests as they come, and the one at its
// head waits there (warp_8's lines, each one address, run ~2 cycles a lane at their slice where free
// interleaving gives 1.25: validation/results/h200-atomics). Its further passes on that word still leave
// the unit to others (the L1 sends them as requests of their own, which interleave).
// Integer and floating-point operations chain differently (the H200 chains one address's f32 adds 3.48
// cycles apart, its u32 adds 1.45): where the trace says which (`pc PC atomic int|float`), the kind's own
// same_address_cycles apply; a kind without its own, or an atomic of unknown kind, takes the one above.
// Times are kept in 1/1024 cycles, as the other rates of the model. Pure and deterministic: the L2
// slice calls execute() when a request's line is at hand, in the order its lookups go.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

#include "../../traces/format/record.h"
#include "../common/clock.h"

namespace dcusim {

struct AtomicWork {
    uint64_t word = 0;     // the address the most lanes share (its line's address when they are all distinct)
    uint32_t sectors = 1;  // the line's sectors the request touches
    uint32_t same = 1;     // the most lanes on one address (the passes)
    trace::AtomicKind kind = trace::AtomicKind::Unknown;
    uint32_t later_sectors = 0;  // the sectors of the passes after the first, summed (0: one a pass)
};

class AtomicUnit {
public:
    static constexpr uint64_t kTicks = 1024;  // per cycle
    // int_same and float_same: the kinds' same_address_cycles (0: same_address_cycles).
    AtomicUnit(double sector_cycles, double same_address_cycles, double int_same = 0, double float_same = 0,
               bool in_order = false)
        : sector_(ticks(sector_cycles)),
          same_{ticks(same_address_cycles), ticks(int_same > 0 ? int_same : same_address_cycles),
                ticks(float_same > 0 ? float_same : same_address_cycles)},
          in_order_(in_order) {}
    bool active() const { return sector_ || same_[0] || same_[1] || same_[2]; }

    // The cycle the request's last operation is done, its line at hand at `ready`.
    Cycle execute(Cycle ready, const AtomicWork& w) {
        if (!active()) return ready;
        const uint64_t same = same_[size_t(w.kind) < 3 ? size_t(w.kind) : 0];
        const uint64_t r = uint64_t(ready) * kTicks, passes = std::max<uint32_t>(1, w.same);
        const uint64_t later = w.later_sectors ? w.later_sectors : passes - 1;
        const uint64_t start = std::max(r, free_), busy = sector_ * (std::max<uint32_t>(1, w.sectors) + later);
        free_ = start + busy;
        uint64_t end = free_;
        if (same) {
            if (chains_.size() > kPruneAt) prune(r);
            uint64_t& chain = chains_[w.word];  // when the word's last operation lets the next one go
            const uint64_t first = std::max(start, chain);
            chain = first + passes * same;
            end = std::max(end, first + (passes - 1) * same + sector_);
            if (in_order_) free_ = first + busy;  // held from its turn until its first operation goes
        }
        return Cycle((end + kTicks - 1) / kTicks);
    }

private:
    static constexpr size_t kPruneAt = 4096;
    // Chains that ended by `now` constrain nothing: dropped (the result does not depend on the order).
    void prune(uint64_t now) {
        for (auto it = chains_.begin(); it != chains_.end();) it = it->second <= now ? chains_.erase(it) : std::next(it);
    }
    static uint64_t ticks(double cycles) { return uint64_t(std::llround(cycles * kTicks)); }
    uint64_t sector_;
    uint64_t same_[3];  // by trace::AtomicKind (unknown, int, float), in ticks
    bool in_order_;
    uint64_t free_ = 0;  // the unit's next free tick
    std::unordered_map<uint64_t, uint64_t> chains_;
};

}  // namespace dcusim
