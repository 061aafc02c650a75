// The compact form of a wave's instruction that the timing model replays (WaveTrace holds a wave's
// list of them); the binary reader decodes a wave's instructions straight into it.
#pragma once

#include <cstdint>

#include "record.h"

namespace dcusim::trace {

// 56 bytes: the fields of a memory instruction, of a compute stretch and of a wait share their storage
// (resident waves hold every instruction of their trace: a smaller record is fewer host pages to clear
// and fewer cache lines to read). Read only the fields of the record's kind.
struct Instr {
    RecKind kind = RecKind::Compute;  // Mem, Barrier, Wait or Compute
    Op op = Op::Load;
    Space space = Space::Global;
    uint8_t bytes = 0;
    AddrMode mode = AddrMode::Affine;
    bool readonly = false;  // a load the kernel declared read-only (`pc PC readonly`)
    AtomicKind atomic = AtomicKind::Unknown;  // an atomic's operands (`pc PC atomic int|float`)
    uint64_t pc = 0;
    union {
        struct {  // Mem
            uint64_t mask;
            uint64_t base;   // Affine: lane 0's address; List: index of the first address in WaveTrace::pool
            int64_t stride;
        };
        struct {  // Compute
            uint64_t count = 0;       // instructions
            uint64_t long_count = 0;  // how many of them are long-latency
            uint64_t mid_count = 0;   // how many take a middle latency
            uint64_t lds_count = 0;   // how many are LDS instructions issued with no lane on
            uint64_t stall = 0;       // cycles they hold the wave (0: not given, the preset's latencies)
        };
        uint64_t keep;  // Wait: how many of the wave's youngest memory operations may stay in flight
    };
};
static_assert(sizeof(Instr) == 56, "a compact record: the variants share their storage");

}  // namespace dcusim::trace
