// The contract between dcucc's three parts: the LLVM pass (which inserts calls
// into device code and rewrites kernel launches in host code), the device
// runtime (which writes one record per wave instruction into a buffer in GPU
// memory) and the host runtime (which gives each launch its buffer, copies the
// records back after the kernel and turns them into dcusim trace records).
// Plain C so that the freestanding device runtime and the host runtime share it.
#ifndef DCUCC_ABI_H
#define DCUCC_ABI_H

#include <stdint.h>

#define DCUCC_ABI_VERSION 1

// Record kinds.
enum { DCUCC_MEM = 0, DCUCC_BARRIER = 1, DCUCC_WAIT = 2, DCUCC_COMPUTE = 3 };
// Spaces: the numbers of dcusim::trace::Space.
enum { DCUCC_GLOBAL = 0, DCUCC_LDS = 1, DCUCC_CONST = 2, DCUCC_LOCAL = 3, DCUCC_GENERIC = 4 };
// Operations: the numbers of dcusim::trace::Op.
enum { DCUCC_LOAD = 0, DCUCC_STORE = 1, DCUCC_ATOMIC = 2 };

// Static description of an instrumented instruction, built by the pass as a
// constant: kind | space | op | log2 bytes | flags. DCUCC_GENERIC is resolved by
// the device runtime into LDS, local or global before the record is written.
#define DCUCC_INFO(kind, space, op, log2b) \
    ((uint32_t)(kind) | ((uint32_t)(space) << 2) | ((uint32_t)(op) << 5) | ((uint32_t)(log2b) << 7))
#define DCUCC_INFO_KIND(i) ((i) & 3u)
#define DCUCC_INFO_SPACE(i) (((i) >> 2) & 7u)
#define DCUCC_INFO_OP(i) (((i) >> 5) & 3u)
#define DCUCC_INFO_LOG2B(i) (((i) >> 7) & 7u)
#define DCUCC_INFO_READONLY (1u << 10)  // a load of memory the kernel never writes (invariant, __ldg)
// NVIDIA's constant bank 0 (kernel parameters from DCUCC_PARAM_OFFSET, launch
// dimensions before them) as constant addresses of their own in the trace.
#define DCUCC_PARAM_WINDOW 0xfffff00000000000ull
#define DCUCC_PARAM_OFFSET 0x210u
#define DCUCC_INFO_AFFINE (1u << 11)    // set by the device: lane i's address is base + i * stride

// One record, 8-byte aligned. Written by the lowest active lane of the wave
// (the leader), except the per-lane addresses of a non-affine memory
// instruction, which each active lane writes. Its size follows from its header:
// DCUCC_REC_SMALL bytes for a barrier, wait or compute record; DCUCC_REC_MEM for
// an affine memory instruction; DCUCC_REC_MEM + 8 x popcount(mask) otherwise.
typedef struct {
    uint32_t info;        // DCUCC_INFO fields; space already resolved
    uint32_t pc;          // the instruction's number in its kernel, given by the pass
    uint64_t mask;        // active lanes, bit i = lane i
    uint64_t block;       // linear workgroup id: x + gx * (y + gy * z)
    uint32_t wave;        // wave in its workgroup: linear thread id / wave size
    uint32_t compute;     // other instructions the wave issued since its previous record
    uint32_t long_count;  // of those, conversions and transcendentals
    uint32_t mid_count;   // of those, high-word multiplies and 64-bit divisions
    uint64_t base;        // memory: address of lane 0 (affine), or of the lowest active lane
    int64_t stride;       // memory, affine: bytes between consecutive lanes
} dcucc_record;

#define DCUCC_REC_SMALL 40u
#define DCUCC_REC_MEM 56u

// Per launch, in GPU memory; its address is the kernel's hidden last argument.
typedef struct {
    uint64_t used;       // bytes reserved by leaders; may pass capacity (then overflow is set)
    uint64_t capacity;   // bytes at buf
    uint64_t buf;        // GPU address of the records
    uint32_t wave_size;  // written by the device: lanes per wave
    uint32_t overflow;   // a record did not fit: the launch is not complete
    uint32_t abi;        // DCUCC_ABI_VERSION, written by the host, checked by nothing on the device
    uint32_t pad;
} dcucc_control;

#endif
