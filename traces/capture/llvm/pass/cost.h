// How many issue slots an IR instruction stands for in the wave's instruction
// stream, and which of them wait longer for their result. The pass runs on IR,
// so these are estimates of what the backend emits (docs/CAPTURE.md says how
// they compare with dcutrace's counts from the final SASS).
#pragma once

#include <cstdint>

#include "llvm/IR/Instruction.h"

#include "target.h"

namespace dcucc {

struct Tally {
    uint32_t n = 0;     // instructions
    uint32_t slow = 0;  // of them long-latency: conversions, transcendentals, divisions
    uint32_t mid = 0;   // of them middle-latency: 64-bit multiplies (high-word products)
    Tally& operator+=(const Tally& o) {
        n += o.n;
        slow += o.slow;
        mid += o.mid;
        return *this;
    }
    bool empty() const { return n == 0; }
};

// The cost of an instruction that is neither a memory access nor a barrier.
Tally cost_of(const llvm::Instruction& inst, Gpu gpu);

}  // namespace dcucc
