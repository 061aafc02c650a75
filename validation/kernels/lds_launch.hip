// Which launches does the H200's profiler count as shared-memory bank conflicts (issue 25)? lds_mix
// found about one for each block launched beside blocks already using shared memory, yet the test set's
// kernels, conflict-free by their own patterns, count 0.5 to 2.4 a later launch. This program varies
// one thing at a time around lds_mix's `waves8` case (256 threads, 8 blocks an SM, eight waves of
// blocks, a 4 KiB tile stored, then read back conflict-free):
// - duty: K dependent FMAs after each shared load, so the other blocks keep the shared pipe busy a
//   smaller share of the time when a block is launched (K = 0, 8, 32, 128);
// - block size: 128, 512 and 1,024 threads (16, 4 and 2 blocks an SM, as many threads);
// - dynamic shared memory: 16 KiB more a block that no instruction touches;
// - waves: one wave of blocks (no later launch) against eight.
// If the count follows the duty, the launch collides with other blocks' accesses; if it follows the
// block size or the shared size, it belongs to the launch itself.
// gemm/tiled64 counts 5 % more store wavefronts than its pattern makes with no later launch at all
// (one block an SM): `phases` repeats its shape, a tile stored from global loads (or from registers),
// a barrier, conflict-free reads, a barrier, 48 times in one block an SM; then the loads' data stored
// only after a barrier, and more sizes of unused shared memory (at 8 blocks an SM: 20 KiB more is the
// most that keeps 8).
#include "../common/harness.h"

constexpr int kTile = 1024;  // floats: 4 KiB

template <int K>
__global__ void lds_duty(float* out, int iters) {
    __shared__ float tile[kTile];
    const int t = threadIdx.x;
    for (int i = t; i < kTile; i += blockDim.x) tile[i] = float(i);
    __syncthreads();
    volatile float* v = tile;
    float acc = 0;
    for (int it = 0; it < iters; ++it) {
        acc += v[(t + 32 * (it & 7)) & (kTile - 1)];
#pragma unroll
        for (int j = 0; j < K; ++j) acc = acc * 0.999f + 0.5f;
    }
    out[size_t(blockIdx.x) * blockDim.x + t] = acc;
}

// SOURCE: 0 registers, 1 global loads stored as they arrive, 2 global loads stored after a barrier (the
// loads' data all back before the first store).
template <int SOURCE>
__global__ void phases(float* out, const float* g, int rounds) {
    __shared__ float tile[kTile];
    const int t = threadIdx.x;
    float acc = 0;
    for (int r = 0; r < rounds; ++r) {
        if (SOURCE == 2) {
            float v[kTile / 256];
            for (int i = t, j = 0; i < kTile; i += blockDim.x, ++j) v[j] = g[(size_t(blockIdx.x) * rounds + r) * kTile + i];
            __syncthreads();
            for (int i = t, j = 0; i < kTile; i += blockDim.x, ++j) tile[i] = v[j];
        } else {
            for (int i = t; i < kTile; i += blockDim.x)
                tile[i] = SOURCE ? g[(size_t(blockIdx.x) * rounds + r) * kTile + i] : float(i + r);
        }
        __syncthreads();
        volatile float* v = tile;
        for (int it = 0; it < 16; ++it) acc += v[(t + 32 * it) & (kTile - 1)];
        __syncthreads();
    }
    out[size_t(blockIdx.x) * blockDim.x + t] = acc;
}

template <int K>
void launch_duty(bool single, const char* name, float* out, int threads, int waves, int iters, size_t dyn = 0) {
    const int blocks = 132 * (2048 / threads) * waves;
    validation::measure(single, "lds_launch", name, blocks, 0, [&] {
        hipLaunchKernelGGL(lds_duty<K>, dim3(blocks), dim3(threads), dyn, 0, out, iters);
    });
}

int main(int argc, char** argv) {
    const bool single = validation::once(argc, argv);
    float* out = nullptr;
    HIP_CHECK(hipMalloc(&out, size_t(132) * 2048 * 8 * sizeof(float)));
    // The duty: the first is lds_mix's waves8_regs again.
    launch_duty<0>(single, "k0_t256_w8", out, 256, 8, 64);
    launch_duty<8>(single, "k8_t256_w8", out, 256, 8, 64);
    launch_duty<32>(single, "k32_t256_w8", out, 256, 8, 64);
    launch_duty<128>(single, "k128_t256_w8", out, 256, 8, 64);
    // The block size, at the duty of the first.
    launch_duty<0>(single, "k0_t128_w8", out, 128, 8, 64);
    launch_duty<0>(single, "k0_t512_w8", out, 512, 8, 64);
    launch_duty<0>(single, "k0_t1024_w8", out, 1024, 8, 64);
    // Shared memory no instruction touches; then no later launch at all.
    launch_duty<0>(single, "k0_t256_w8_dyn16k", out, 256, 8, 64, 16384);
    launch_duty<0>(single, "k0_t256_w1", out, 256, 1, 64);
    // Longer blocks: fewer launches a cycle, the same duty.
    launch_duty<0>(single, "k0_t256_w8_long", out, 256, 8, 512);
    // One block an SM, no later launch: the tile from global loads, then from registers.
    const int rounds = 48;
    float* g = nullptr;
    HIP_CHECK(hipMalloc(&g, size_t(132) * rounds * kTile * sizeof(float)));
    HIP_CHECK(hipMemset(g, 0, size_t(132) * rounds * kTile * sizeof(float)));
    validation::measure(single, "lds_launch", "phases_ldg", 132, 0, [&] {
        hipLaunchKernelGGL(phases<1>, dim3(132), dim3(256), 0, 0, out, g, rounds);
    });
    validation::measure(single, "lds_launch", "phases_regs", 132, 0, [&] {
        hipLaunchKernelGGL(phases<0>, dim3(132), dim3(256), 0, 0, out, g, rounds);
    });
    // Added after the first run: the loads' data stored after a barrier; more unused shared memory.
    validation::measure(single, "lds_launch", "phases_ldg_barrier", 132, 0, [&] {
        hipLaunchKernelGGL(phases<2>, dim3(132), dim3(256), 0, 0, out, g, rounds);
    });
    launch_duty<0>(single, "k0_t256_w8_dyn4k", out, 256, 8, 64, 4096);
    launch_duty<0>(single, "k0_t256_w8_dyn8k", out, 256, 8, 64, 8192);
    launch_duty<0>(single, "k0_t256_w8_dyn20k", out, 256, 8, 64, 20480);
    launch_duty<32>(single, "k32_t256_w8_dyn16k", out, 256, 8, 64, 16384);
    launch_duty<0>(single, "k0_t1024_w8_dyn16k", out, 1024, 8, 64, 16384);
    HIP_CHECK(hipFree(g));
    HIP_CHECK(hipFree(out));
    return 0;
}
