// Where the device patches (patch.cu) put warp-instruction records for the
// host (tool.cpp). A launch's first `dcap` records go to a buffer in device
// memory (cheap to write; copied to the host after the kernel). Any beyond go
// to a ring in pinned host memory that the GPU writes directly and host
// threads drain while the kernel runs: a warp whose slot is a full ring ahead
// of the drain waits for it. Nothing is overwritten or dropped; only
// --max-records stops recording, and what it stops is counted.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define DCUTRACE_HD __host__ __device__
#else
#define DCUTRACE_HD
#endif

namespace dcutrace {

constexpr uint32_t kWarpLanes = 32;

// RawRecord::info bit fields.
enum RawKind : uint32_t { RawMem = 0, RawBarrier = 1 };
enum RawSpace : uint32_t { RawGlobal = 0, RawShared = 1, RawLocal = 2 };
enum RawOp : uint32_t { RawLoad = 0, RawStore = 1, RawAtomic = 2 };
constexpr uint32_t kInfoAffine = 1u << 12;  // lane i's address is base + i * stride

DCUTRACE_HD inline constexpr uint32_t raw_info(uint32_t kind, uint32_t space, uint32_t op, uint32_t log2_bytes) {
    return kind | (space << 4) | (op << 6) | (log2_bytes << 8);
}
DCUTRACE_HD inline constexpr uint32_t raw_kind(uint32_t info) { return info & 0xf; }
DCUTRACE_HD inline constexpr uint32_t raw_space(uint32_t info) { return (info >> 4) & 3; }
DCUTRACE_HD inline constexpr uint32_t raw_op(uint32_t info) { return (info >> 6) & 3; }
DCUTRACE_HD inline constexpr uint32_t raw_log2_bytes(uint32_t info) { return (info >> 8) & 7; }

// One warp instruction. The leader lane writes the header; each active lane
// writes its own address unless the addresses are affine. `seq` is written
// last (slot + 1): the host reads a slot only once its seq matches.
struct RawRecord {
    uint32_t seq;
    uint32_t info;
    uint32_t mask;  // active lanes
    uint32_t warp;  // warp index in its block (linear thread id / 32)
    uint64_t block; // linear block id
    uint64_t pc;    // absolute; the host subtracts the function's base
    uint64_t base;  // affine: address of lane 0
    int64_t stride; // affine: bytes between lanes
    uint64_t addr[kWarpLanes];
};

// In device memory: the slot counter is a device atomic taken once per warp
// instruction. The records and the drain counter live in pinned host memory.
struct RingControl {
    unsigned long long reserved;      // next slot; grows across launches, never reset
    unsigned long long limit;         // slots at or past this are counted, not written
    unsigned long long over_limit;    // warp instructions not recorded because of `limit`
    unsigned long long drained_seen;  // the last value of *drained a warp read (saves host reads)
    unsigned long long first;         // this launch's first slot
    unsigned long long dcap;          // slots first .. first + dcap - 1 go to `dbuf`
    RawRecord* dbuf;                  // device memory
    RawRecord* ring;                  // host memory, `capacity` slots, for slots from first + dcap on
    volatile unsigned long long* drained;  // host memory: slots the host has consumed
    uint32_t capacity;                // a power of two
    uint32_t enabled;                 // 0: the launched kernel is not traced
    uint32_t dyn_smem;                // dynamic shared bytes of the launch, from %dynamic_smem_size
    uint32_t pad;
};

}  // namespace dcutrace
