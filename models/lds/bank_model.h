// LDS bank-conflict cost of one wave instruction (docs/ARCHITECTURE.md, "LDS").
//
// Banks: `banks` banks of `bank_bytes` bytes; word = addr / bank_bytes,
// bank = word % banks. A lane touching B bytes touches every word of
// [addr, addr+B). Lanes are served in groups of
//     G = max(1, banks * bank_bytes / max(B, bank_bytes))
// consecutive lane indices (32 banks x 4 B: 32 lanes for 1-4 B, 16 lanes for
// 8 B, 8 lanes for 16 B), so consecutive 8- and 16-byte lanes are conflict-free.
// A group with an active lane costs the largest number of distinct words any
// one bank must serve; lanes reading or writing the same word share it
// (broadcast), atomics do not (each lane's update is serialised).
#pragma once

#include <cstdint>

#include "../../traces/replay/wave_trace.h"

namespace dcusim {

struct LdsGeometry {
    uint32_t banks = 32;
    uint32_t bank_bytes = 4;
};

struct LdsCost {
    uint32_t cycles = 0;           // sum over active groups of the group's cost
    uint32_t conflict_cycles = 0;  // sum over active groups of (cost - 1)
    uint32_t groups = 0;           // active groups
};

LdsCost lds_cost(const LdsGeometry& g, const trace::Instr& in, const trace::WaveTrace& w);

}  // namespace dcusim
