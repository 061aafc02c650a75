// A unit held for fractional cycles (a link at a fractional rate, a port taken for 2.16 cycles) keeps its
// time in 1/1024 cycles (params.h's kTick) in 64 bits, so that fractions add up without drifting.
#pragma once

#include <algorithm>
#include <cstdint>

#include "clock.h"

namespace dcusim {

struct TickSlot {
    static constexpr Cycle kPerCycle = 1024;
    // Holds the unit free at tick `free` from cycle `ready`, or once it frees, for `ticks`; returns the tick
    // the hold starts at.
    static Cycle hold(Cycle& free, Cycle ready, Cycle ticks) {
        const Cycle start = std::max(ready * kPerCycle, free);
        free = start + ticks;
        return start;
    }
    // The first cycle boundary at or after tick `t`.
    static Cycle cycle_at(Cycle t) { return (t + kPerCycle - 1) / kPerCycle; }
};

}  // namespace dcusim
