// Shared-memory accesses beside global traffic (issue 25): the H200's profiler counts shared-memory bank
// conflicts in application kernels whose own shared pattern is conflict-free. The L1 and the shared
// memory share one data array there, so this program asks whether global traffic of other warps of the
// same block is what it counts. Each block's first half of threads runs a shared-memory loop (loads or
// stores, 4-byte lanes conflict-free or 2-way, 8- and 16-byte lanes); its second half meanwhile does
// nothing, streams global loads that miss the L1, re-reads a 4 KiB window that hits it, or streams
// global stores. One block per SM (132 blocks of 256 threads at both sizes). Then blocks in one wave
// or eight (lds_waves).
#include "../common/harness.h"

constexpr int kWords = 4096;  // 16 KiB of shared memory
enum SharedOp { kLd32, kSt32, kLd32Way2, kSt32Way2, kLd64, kLd128 };
enum GlobalOp { kNone, kLoad, kStore };

// The shared half: `iters` accesses per lane; `period` (a run-time 32) stops the compiler from merging
// iterations, whose addresses repeat only through it.
template <int SOP>
__device__ float shared_half(float* buf, int iters, int period) {
    const int lane = threadIdx.x & 31, row = (threadIdx.x >> 5) * 8;
    volatile float* v = buf;
    float acc = 0;
    for (int it = 0; it < iters; ++it) {
        const int r = (row + it % period) & 31;  // a 128-byte row per warp per iteration
        if (SOP == kLd32) acc += v[r * 32 + lane];
        if (SOP == kSt32) v[r * 32 + lane] = acc + it;
        if (SOP == kLd32Way2) acc += v[r * 64 + 2 * lane];  // 2 words per bank: 2 wavefronts
        if (SOP == kSt32Way2) v[r * 64 + 2 * lane] = acc + it;
        if (SOP == kLd64) {
            const float2 x = reinterpret_cast<const float2*>(buf)[r * 32 + lane];
            acc += x.x + x.y;
        }
        if (SOP == kLd128) {
            const float4 x = reinterpret_cast<const float4*>(buf)[(r & 15) * 32 + lane];
            acc += x.x + x.w;
        }
    }
    return acc;
}

// The global half: `giters` coalesced 4-byte loads or stores per lane; `mask` selects the block's
// window: all ones streams through fresh lines (L1 misses), 7 re-reads eight 512-byte rows (hits).
template <int GOP>
__device__ float global_half(const float* g, float* gw, int giters, unsigned mask) {
    const int t = threadIdx.x - blockDim.x / 2, half = blockDim.x / 2;
    const size_t base = size_t(blockIdx.x) * giters * half;
    float acc = 0;
    for (int j = 0; j < giters; ++j) {
        const size_t i = base + size_t(unsigned(j) & mask) * half + t;
        if (GOP == kLoad) acc += g[i];
        if (GOP == kStore) gw[i] = float(j);
    }
    return acc;
}

template <int SOP, int GOP>
__global__ void lds_mix(float* out, const float* g, float* gw, int iters, int giters, unsigned mask, int period) {
    __shared__ float buf[kWords];
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) buf[i] = float(i);
    __syncthreads();
    float acc = 0;
    if (threadIdx.x < blockDim.x / 2) acc = shared_half<SOP>(buf, iters, period);
    else if (GOP != kNone) acc = global_half<GOP>(g, gw, giters, mask);
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc + buf[threadIdx.x];
}

// Blocks in waves: each block stores its tile (from global memory, or from registers), waits, then
// reads it back `iters` times, conflict-free. Launched at one wave (8 blocks per SM, all in step) or
// at eight waves (later blocks start while earlier ones run): do launches, exits or the other blocks'
// global loads, none of them the block's own pattern, add counted conflicts?
template <bool GLOBAL>
__global__ void lds_waves(float* out, const float* g, int iters, int period) {
    __shared__ float buf[kWords / 4];
    const int t = threadIdx.x;
    buf[t] = GLOBAL ? g[size_t(blockIdx.x) * blockDim.x + t] : float(t);
    __syncthreads();
    volatile float* v = buf;
    float acc = 0;
    for (int it = 0; it < iters; ++it) acc += v[(t + 32 * (it % period)) & (kWords / 4 - 1)];
    out[size_t(blockIdx.x) * blockDim.x + t] = acc;
}

struct Buffers {
    float *out, *g, *gw;
};

template <int SOP, int GOP>
void run(bool single, bool small, const Buffers& b, const char* sop, const char* gop, unsigned mask) {
    const int blocks = 132, threads = 256, iters = small ? 512 : 4096, giters = small ? 256 : 2048;
    char name[64];
    std::snprintf(name, sizeof name, "%s_%s", sop, gop);
    validation::measure(single, "lds_mix", name, iters, 0, [&] {
        hipLaunchKernelGGL((lds_mix<SOP, GOP>), dim3(blocks), dim3(threads), 0, 0, b.out, b.g, b.gw, iters, giters, mask, 32);
    });
}

template <int SOP>
void run_all(bool single, bool small, const Buffers& b, const char* sop) {
    run<SOP, kNone>(single, small, b, sop, "alone", ~0u);
    run<SOP, kLoad>(single, small, b, sop, "ldmiss", ~0u);
    run<SOP, kLoad>(single, small, b, sop, "ldhit", 7u);
    run<SOP, kStore>(single, small, b, sop, "store", ~0u);
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv), small = validation::small(argc, argv);
    const size_t words = size_t(132) * 2048 * 128;  // the full size's global window: 138 MB
    Buffers b{};
    HIP_CHECK(hipMalloc(&b.out, 132 * 256 * sizeof(float)));
    HIP_CHECK(hipMalloc(&b.g, words * sizeof(float)));
    HIP_CHECK(hipMalloc(&b.gw, words * sizeof(float)));
    HIP_CHECK(hipMemset(b.g, 0, words * sizeof(float)));
    run_all<kLd32>(single, small, b, "ld32");
    run_all<kSt32>(single, small, b, "st32");
    run_all<kLd32Way2>(single, small, b, "ld32w2");
    run_all<kSt32Way2>(single, small, b, "st32w2");
    run_all<kLd64>(single, small, b, "ld64");
    run_all<kLd128>(single, small, b, "ld128");
    for (int waves : {1, 8})
        for (bool global : {false, true}) {
            char name[64];
            std::snprintf(name, sizeof name, "waves%d_%s", waves, global ? "ldg" : "regs");
            const int blocks = 132 * 8 * waves, iters = small ? 64 : 512;
            validation::measure(single, "lds_mix", name, iters, 0, [&] {
                if (global) hipLaunchKernelGGL(lds_waves<true>, dim3(blocks), dim3(256), 0, 0, b.gw, b.g, iters, 8);
                else hipLaunchKernelGGL(lds_waves<false>, dim3(blocks), dim3(256), 0, 0, b.gw, b.g, iters, 8);
            });
        }
    for (float* p : {b.out, b.g, b.gw}) HIP_CHECK(hipFree(p));
    return 0;
}
