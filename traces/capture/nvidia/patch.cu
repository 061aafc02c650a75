// Device patches the Compute Sanitizer inserts before every global, shared
// and local memory instruction and every barrier of a traced kernel. Built
// with `nvcc --fatbin --compile-as-tools-patch`. Every active lane calls the
// patch; the lowest active lane (the leader) reserves one ring slot for the
// whole warp and broadcasts it, so one record costs one atomic per warp
// instead of one per thread. Affine addresses (the common coalesced case)
// are stored as base and stride only, which keeps the writes to host memory small.
#include <sanitizer_patching.h>

#include "ring.h"

using namespace dcutrace;

namespace {

__device__ __forceinline__ uint32_t lane_id() {
    uint32_t l;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
    return l;
}

__device__ __forceinline__ uint64_t block_linear() {
    return blockIdx.x + uint64_t(gridDim.x) * (blockIdx.y + uint64_t(gridDim.y) * blockIdx.z);
}

__device__ __forceinline__ uint32_t warp_in_block() {
    return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / kWarpLanes;
}

// The leader takes the next slot and waits until the host has drained the
// record a full ring before it (a full ring is flushed, never overwritten);
// the lanes' writes are fenced before the leader publishes the sequence number.
__device__ __forceinline__ void wait_for_room(RingControl* c, unsigned long long slot) {
    if (slot - *(volatile unsigned long long*)&c->drained_seen < c->capacity) return;
    unsigned long long d;
    while (slot - (d = *c->drained) >= c->capacity) __nanosleep(1000);
    atomicMax(&c->drained_seen, d);
}

__device__ SanitizerPatchResult record_mem(void* userdata, uint64_t pc, void* ptr, uint32_t bytes, uint32_t flags,
                                           uint32_t space) {
    RingControl* c = static_cast<RingControl*>(userdata);
    if (!c || !c->enabled || (flags & SANITIZER_MEMORY_DEVICE_FLAG_PREFETCH)) return SANITIZER_PATCH_SUCCESS;
    const uint32_t mask = __activemask();
    const uint32_t lane = lane_id();
    const uint32_t leader = __ffs(mask) - 1;
    const uint64_t a = uint64_t(ptr);

    // Affine when every active lane's address is the leader's plus (lane - leader) x stride.
    const uint64_t a0 = __shfl_sync(mask, a, leader);
    const uint32_t rest = mask & ~(1u << leader);
    int64_t stride = 0;
    if (rest) {
        const uint32_t l1 = __ffs(rest) - 1;
        stride = int64_t(__shfl_sync(mask, a, l1) - a0) / int64_t(l1 - leader);
    }
    const bool affine = __all_sync(mask, a == a0 + uint64_t(stride * (int64_t(lane) - int64_t(leader))));

    uint32_t op = RawLoad;
    const bool rd = flags & SANITIZER_MEMORY_DEVICE_FLAG_READ, wr = flags & SANITIZER_MEMORY_DEVICE_FLAG_WRITE;
    if ((rd && wr) || (flags & SANITIZER_MEMORY_DEVICE_FLAG_ATOMSYS)) op = RawAtomic;
    else if (wr) op = RawStore;
    uint32_t log2b = 0;
    while (log2b < 4 && (1u << log2b) < bytes) ++log2b;

    unsigned long long slot = 0;
    if (lane == leader) {
        slot = atomicAdd(&c->reserved, 1ull);
        if (slot >= c->limit) {
            atomicAdd(&c->over_limit, 1ull);
            slot = ~0ull;
        } else if (slot - c->first >= c->dcap) {
            wait_for_room(c, slot);
        }
    }
    slot = __shfl_sync(mask, slot, leader);
    if (slot == ~0ull) return SANITIZER_PATCH_SUCCESS;
    const bool staged = slot - c->first < c->dcap;  // device buffer: no ordering with the host needed
    RawRecord* r = staged ? &c->dbuf[slot - c->first] : &c->ring[slot & (c->capacity - 1)];
    if (!affine) r->addr[lane] = a;
    __syncwarp(mask);  // orders the lanes' address writes before the leader's fence
    if (lane == leader) {
        r->info = raw_info(RawMem, space, op, log2b) | (affine ? kInfoAffine : 0);
        r->mask = mask;
        r->warp = warp_in_block();
        r->block = block_linear();
        r->pc = pc;
        r->base = a0 - uint64_t(stride * int64_t(leader));
        r->stride = stride;
        if (!staged) {
            __threadfence_system();  // everything above reaches host memory before the sequence number
            *(volatile uint32_t*)&r->seq = uint32_t(slot + 1);
        }
    }
    return SANITIZER_PATCH_SUCCESS;
}

}  // namespace

extern "C" __device__ __noinline__ SanitizerPatchResult dcutrace_global(void* u, uint64_t pc, void* ptr, uint32_t n,
                                                                        uint32_t flags, const void*) {
    return record_mem(u, pc, ptr, n, flags, RawGlobal);
}

extern "C" __device__ __noinline__ SanitizerPatchResult dcutrace_shared(void* u, uint64_t pc, void* ptr, uint32_t n,
                                                                        uint32_t flags, const void*) {
    return record_mem(u, pc, ptr, n, flags, RawShared);
}

extern "C" __device__ __noinline__ SanitizerPatchResult dcutrace_local(void* u, uint64_t pc, void* ptr, uint32_t n,
                                                                       uint32_t flags, const void*) {
    return record_mem(u, pc, ptr, n, flags, RawLocal);
}

extern "C" __device__ __noinline__ SanitizerPatchResult dcutrace_barrier(void* u, uint64_t pc, uint32_t, uint32_t,
                                                                         uint32_t) {
    RingControl* c = static_cast<RingControl*>(u);
    if (!c || !c->enabled) return SANITIZER_PATCH_SUCCESS;
    const uint32_t mask = __activemask();
    const uint32_t lane = lane_id();
    const uint32_t leader = __ffs(mask) - 1;
    if (lane != leader) return SANITIZER_PATCH_SUCCESS;
    unsigned long long slot = atomicAdd(&c->reserved, 1ull);
    if (slot >= c->limit) {
        atomicAdd(&c->over_limit, 1ull);
        return SANITIZER_PATCH_SUCCESS;
    }
    const bool staged = slot - c->first < c->dcap;
    if (!staged) wait_for_room(c, slot);
    RawRecord* r = staged ? &c->dbuf[slot - c->first] : &c->ring[slot & (c->capacity - 1)];
    r->info = raw_info(RawBarrier, 0, 0, 0);
    r->mask = mask;
    r->warp = warp_in_block();
    r->block = block_linear();
    r->pc = pc;
    if (!staged) {
        __threadfence_system();
        *(volatile uint32_t*)&r->seq = uint32_t(slot + 1);
    }
    return SANITIZER_PATCH_SUCCESS;
}

// The first thread of the grid records the launch's dynamic shared memory,
// which the launch callback does not report.
extern "C" __device__ __noinline__ SanitizerPatchResult dcutrace_block_enter(void* u, uint64_t) {
    RingControl* c = static_cast<RingControl*>(u);
    if (c && c->enabled && block_linear() == 0 && threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
        uint32_t v;
        asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(v));
        c->dyn_smem = v;
    }
    return SANITIZER_PATCH_SUCCESS;
}
