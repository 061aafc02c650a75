// What do the shared-memory conflicts counted beside block launches collide with (issue 25)? lds_launch
// found them in blocks whose own pattern is conflict-free (lds_duty: a 4 KiB tile written from registers,
// 64 conflict-free reads a thread), about 3 a later launch, more with larger blocks, fewer where the other
// blocks leave the shared pipe idle. Those blocks touch global memory once: each thread's one store of its
// result at the end. The L1 and shared memory share one data array on sm_90; if a global store's or a
// fill's passage through it takes a cycle from the shared reads of the blocks still running, the count
// follows the global bytes a block moves, not the launch. Each variant keeps lds_duty's shared work (256
// threads, 8 blocks an SM, eight waves of blocks) and changes only its global traffic:
// - store0: no global store (the result is stored only if it takes a value it never takes);
// - store1: one float a thread at the end (lds_duty itself);
// - store4, store16: 4 and 16 floats a thread at the end, whole lines;
// - load4: 4 floats a thread loaded from global memory before the tile is written (its lines fill the L1
//   while the other blocks read), and the one store;
// - store4_w1: store4 in one wave of blocks (no block launched beside running ones).
#include "../common/harness.h"

constexpr int kTile = 1024;  // floats: 4 KiB

// LOADS floats a thread read from `g` at the start, STORES stored to `out` at the end (0: none, unless the
// sum takes a value it cannot, so that the compiler keeps the reads).
template <int LOADS, int STORES>
__global__ void lds_collide(float* out, const float* g, int iters) {
    __shared__ float tile[kTile];
    const int t = threadIdx.x;
    const size_t block_base = size_t(blockIdx.x) * blockDim.x;
    float seed = 0;
    for (int k = 0; k < LOADS; ++k) seed += g[(block_base * LOADS) + size_t(k) * blockDim.x + t];
    for (int i = t; i < kTile; i += blockDim.x) tile[i] = float(i) + seed;
    __syncthreads();
    volatile float* v = tile;
    float acc = 0;
    for (int it = 0; it < iters; ++it) acc += v[(t + 32 * (it & 7)) & (kTile - 1)];
    if (STORES == 0) {
        if (acc == -1.5f) out[block_base + t] = acc;
    } else {
        for (int k = 0; k < STORES; ++k) out[(block_base * STORES) + size_t(k) * blockDim.x + t] = acc + float(k);
    }
}

template <int LOADS, int STORES>
void launch(bool single, const char* name, float* out, const float* g, int waves) {
    const int threads = 256, blocks = 132 * (2048 / threads) * waves;
    validation::measure(single, "lds_collide", name, blocks, 0, [&] {
        hipLaunchKernelGGL((lds_collide<LOADS, STORES>), dim3(blocks), dim3(threads), 0, 0, out, g, 64);
    });
}

int main(int argc, char** argv) {
    const bool single = validation::once(argc, argv);
    const size_t threads = size_t(132) * 2048 * 8;  // every thread of eight waves of blocks
    float *out = nullptr, *g = nullptr;
    HIP_CHECK(hipMalloc(&out, threads * 16 * sizeof(float)));
    HIP_CHECK(hipMalloc(&g, threads * 4 * sizeof(float)));
    HIP_CHECK(hipMemset(g, 0, threads * 4 * sizeof(float)));
    launch<0, 0>(single, "store0", out, g, 8);
    launch<0, 1>(single, "store1", out, g, 8);
    launch<0, 4>(single, "store4", out, g, 8);
    launch<0, 16>(single, "store16", out, g, 8);
    launch<4, 1>(single, "load4", out, g, 8);
    launch<0, 4>(single, "store4_w1", out, g, 1);
    HIP_CHECK(hipFree(g));
    HIP_CHECK(hipFree(out));
    return 0;
}
