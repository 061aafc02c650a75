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
// The second run adds: store2 and store8; store4 with 64 FMAs after each store (spread in time); store4
// and store0 with the reads 32 FMAs apart (the shared pipe mostly idle); 4 floats a thread in one
// 16-byte store; the block's 32 lines stored by one warp. The third: 3 and 6 a thread; 4 in two bursts
// of 2; 4 stored before the shared reads.
#include "../common/harness.h"

constexpr int kTile = 1024;  // floats: 4 KiB

// LOADS floats a thread read from `g` at the start, STORES stored to `out` at the end (0: none, unless the
// sum takes a value it cannot, so that the compiler keeps the reads). K dependent FMAs after each shared
// read (the other blocks' shared duty), GAP after each store (stores spread in time); SHAPE 0: each warp
// stores its lines one 4-byte store a line, 1: one 16-byte store a thread (4 lines an instruction), 2:
// warp 0 alone stores the block's lines (8 x STORES instructions in a row), 3: two bursts of STORES / 2,
// 64 dependent FMAs apart, 4: the stores before the shared reads, not after, 5: odd blocks store, even
// ones do not, 6: each store interleaved with a shared read that feeds it (a transpose's loop).
template <int LOADS, int STORES, int K = 0, int GAP = 0, int SHAPE = 0>
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
    float* o = out + block_base * STORES;
    if (SHAPE == 4)
        for (int k = 0; k < STORES; ++k) o[size_t(k) * blockDim.x + t] = seed + float(k);
    for (int it = 0; it < iters; ++it) {
        acc += v[(t + 32 * (it & 7)) & (kTile - 1)];
#pragma unroll
        for (int j = 0; j < K; ++j) acc = acc * 0.999f + 0.5f;
    }
    if (SHAPE == 5 && (blockIdx.x & 1) == 0) {
        if (acc == -1.5f) out[block_base + t] = acc;
    } else if (SHAPE == 6) {
        for (int k = 0; k < STORES; ++k) o[size_t(k) * blockDim.x + t] = acc + v[(t * 33 + k) & (kTile - 1)];
    } else if (SHAPE == 4) {
        if (acc == -1.5f) out[block_base + t] = acc;
    } else if (STORES == 0) {
        if (acc == -1.5f) out[block_base + t] = acc;
    } else if (SHAPE == 1) {
        reinterpret_cast<float4*>(o)[t] = make_float4(acc, acc + 1, acc + 2, acc + 3);  // STORES == 4
    } else if (SHAPE == 3) {
        for (int k = 0; k < STORES; ++k) {
            o[size_t(k) * blockDim.x + t] = acc + float(k);
            if (k == STORES / 2 - 1)
#pragma unroll
                for (int j = 0; j < 64; ++j) acc = acc * 0.999f + 0.5f;
        }
    } else if (SHAPE == 2) {
        __syncthreads();
        if (t < 32)
            for (int k = 0; k < STORES * int(blockDim.x) / 32; ++k) o[size_t(k) * 32 + t] = acc + float(k);
    } else {
        for (int k = 0; k < STORES; ++k) {
            o[size_t(k) * blockDim.x + t] = acc + float(k);
#pragma unroll
            for (int j = 0; j < GAP; ++j) acc = acc * 0.999f + 0.5f;
        }
    }
}

template <int LOADS, int STORES, int K = 0, int GAP = 0, int SHAPE = 0>
void launch(bool single, const char* name, float* out, const float* g, int waves) {
    const int threads = 256, blocks = 132 * (2048 / threads) * waves;
    validation::measure(single, "lds_collide", name, blocks, 0, [&] {
        hipLaunchKernelGGL((lds_collide<LOADS, STORES, K, GAP, SHAPE>), dim3(blocks), dim3(threads), 0, 0, out, g, 64);
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
    // Added in the second run: the form of the stores' part.
    launch<0, 2>(single, "store2", out, g, 8);
    launch<0, 8>(single, "store8", out, g, 8);
    launch<0, 4, 0, 64>(single, "store4_gap64", out, g, 8);   // 64 dependent FMAs after each store
    launch<0, 4, 32>(single, "store4_k32", out, g, 8);        // the other blocks' reads 32 FMAs apart
    launch<0, 0, 32>(single, "store0_k32", out, g, 8);
    launch<0, 4, 0, 0, 1>(single, "store4_vec", out, g, 8);   // one 16-byte store a thread
    launch<0, 4, 0, 0, 2>(single, "store4_onewarp", out, g, 8);  // warp 0 stores the block's 32 lines
    // Added in the third run: where between 16 and 32 lines a block the stores start to cost.
    launch<0, 3>(single, "store3", out, g, 8);
    launch<0, 6>(single, "store6", out, g, 8);
    launch<0, 4, 0, 0, 3>(single, "store4_split", out, g, 8);  // 2 + 2, 64 FMAs apart
    launch<0, 4, 0, 0, 4>(single, "store4_first", out, g, 8);  // before the reads
    // Added in the fourth run: whose shared reads the stores meet.
    launch<0, 16, 0, 0, 5>(single, "store16_odd", out, g, 8);  // odd blocks store 16, even ones none
    launch<0, 4, 0, 0, 6>(single, "store4_fed", out, g, 8);    // each store fed by a shared read
    launch<0, 4, 0, 0, 6>(single, "store4_fed_w1", out, g, 1);
    HIP_CHECK(hipFree(g));
    HIP_CHECK(hipFree(out));
    return 0;
}
