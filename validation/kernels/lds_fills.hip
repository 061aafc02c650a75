// Shared stores fed by global loads as they arrive (issue 25): lds_launch's `phases_ldg` (one block an SM,
// 48 rounds of a 4 KiB tile stored from global loads, a barrier, 16 conflict-free reads, a barrier) counts
// about one extra store wavefront in 125 stores, where the tile stored from registers, or stored after a
// barrier that waits for every load, counts none; so does gemm/tiled64 (11,839), while a transpose's tile
// (32 x 33 floats from one load a thread, 8 blocks an SM, one pass) counts none. Each variant changes one
// thing of `phases_ldg`:
// - ldg4_b1: phases_ldg itself (4 loads and 4 conflict-free 4-byte stores a thread a round);
// - ldg1_b1: one load and one store a thread a round (a 1 KiB tile);
// - vec_b1: one 16-byte load and one 16-byte store a thread a round (4 KiB, 4 wavefronts a store);
// - ldg4_b8: 8 blocks an SM (one wave of 1,056 blocks), 48 rounds each;
// - ldg4_r1_b8: 8 blocks an SM, one round each (a transpose's one pass);
// - regs_b8: 8 blocks an SM, the tile from registers (no global load).
// The same counters as the suite's (ncu, one profiled launch a variant). The second run adds, at 8 blocks
// an SM: 2, 4, 8 and 16 rounds; 2 loads a thread; the same 4 KiB loaded every round (L1 hits after the
// first); and 20 KiB of unused shared memory a block (the driver then leaves the L1 less room).
// The third run asks whether the stores collide once the L1 is full (its fills then replace lines) rather
// than once the warps are out of step: the same 8 blocks an SM with the shared carve-out set to its
// largest (`l1min`: the L1 at its smallest, full within the first round) or smallest (`l1max`), and
// rounds that start with the L1 already full of other lines (`pre`: each block first loads 32 KiB it
// never stores, then waits at a barrier). It also takes regs_b8 (the tile from registers, 15 % slower
// than the model) apart: 1, 2 and 4 blocks an SM, no barriers, no reads, 32 reads.
// The fourth run asks whether where the stored tile lies in the shared memory decides: the tile in
// dynamic shared memory of 20 KiB a block, at its start (`tile_first`) or after 16 KiB left unused
// (`tile_last`); the footprint, the carve-out and the L1 are the same.
// The fifth run maps what decides, one thing at a time, at 8 blocks an SM and 48 rounds: (a) ldg4_b8 (40 KiB
// in use) under preferred carve-outs of 28, 43, 57, 71 and 85 % of the 228 KiB (`carve64k` .. `carve196k`,
// named by the size aimed at: the H100's driver gave 100, 132, 164, 228 and 228 KiB, ncu's `carveout`
// metrics); (b) the carve-out at 228 KiB (`l1min`) with 4 to 24 KiB of dynamic shared memory a block, the
// tile at its start (`l1min_dyn4k` .. `l1min_dyn24k`: 40 to 200 KiB in use); (c) 20 KiB of dynamic shared
// memory a block under the driver's 196 KiB with the tile 4, 8 or 12 KiB in (`tile_at4k` .. `tile_at12k`,
// between tile_first and tile_last), and under 228 KiB 16 KiB in (`l1min_dyn20k_at16k`, beside
// l1min_dyn20k).
// The seventh run pins where between 60 and 92 KiB of empty carve-out the extra store wavefronts start, and
// tries the rule on other shapes, the tile at its block's start throughout: (a) the carve-out at 228 KiB, 8
// blocks an SM, 17, 18, 19 and 19.5 KiB of dynamic shared memory a block (144, 152, 160 and 164 KiB in use:
// 84, 76, 68 and 64 KiB empty); (b) the same empty sizes and 92 KiB under a preference of 57 % (164 KiB in
// the fifth run, `carve132k`), 8 to 11.5 KiB a block (72 to 100 KiB in use), to tell the empty part from the
// part in use; (c) 4 blocks an SM under 228 KiB, 41 KiB a block (168 KiB in use, as l1min_dyn20k; a fifth
// block would fit, the grid of 528 leaves it out) or 45 KiB (184 KiB, no fifth fits), beside 8 blocks of
// 22 KiB (184 KiB); (d) l1min_dyn20k with 12 and 24 rounds instead of 48. Every dynamic size stays under
// 48 KiB, so no launch needs hipFuncAttributeMaxDynamicSharedMemorySize.
#include "../common/harness.h"

constexpr int kTile = 1024;  // floats: 4 KiB

// WORDS floats a thread stored a round (4: 4 loads and stores; 1: one; VEC: one float4), from global
// loads as they arrive (LDG) or from registers.
// CARVE: the kernel's preferred shared carve-out in percent (-1: the driver's choice), a template
// argument so that each setting is a function of its own. PRE: floats each block loads first, into a
// sum only, from `pre`. SYNC: the two barriers a round; READS: shared reads a thread a round.
// TILE_AT: the tile's offset in floats in the block's dynamic shared memory (-1: a static array).
template <int WORDS, bool VEC, bool LDG, bool REUSE = false, int CARVE = -1, int PRE = 0, bool SYNC = true, int READS = 16,
          int TILE_AT = -1>
__global__ void fills(float* out, const float* g, int rounds, const float* pre) {
    __shared__ float static_tile[TILE_AT < 0 ? kTile : 1];
    extern __shared__ float dynamic_shared[];
    float* tile = TILE_AT < 0 ? static_tile : dynamic_shared + (TILE_AT < 0 ? 0 : TILE_AT);
    const int t = threadIdx.x;
    const int words = WORDS * int(blockDim.x);  // the tile's floats this variant stores
    float acc = 0;
    if (PRE) {
        for (int i = t; i < PRE; i += blockDim.x) acc += pre[size_t(blockIdx.x) * PRE + i];
        __syncthreads();
    }
    for (int r = 0; r < rounds; ++r) {
        const float* src = g + (size_t(blockIdx.x) * rounds + (REUSE ? 0 : r)) * kTile;
        if (VEC) {
            reinterpret_cast<float4*>(tile)[t] =
                LDG ? reinterpret_cast<const float4*>(src)[t] : make_float4(float(t), float(r), float(t + r), 1.f);
        } else {
            for (int i = t; i < words; i += blockDim.x) tile[i] = LDG ? src[i] : float(i + r);
        }
        if (SYNC) __syncthreads();
        volatile float* v = tile;
        for (int it = 0; it < READS; ++it) acc += v[(t + 32 * it) & (words - 1)];
        if (SYNC) __syncthreads();
    }
    out[size_t(blockIdx.x) * blockDim.x + t] = acc;
}

template <int WORDS, bool VEC, bool LDG, bool REUSE = false, int CARVE = -1, int PRE = 0, bool SYNC = true, int READS = 16,
          int TILE_AT = -1>
void launch(bool single, const char* name, float* out, const float* g, int blocks, int rounds, size_t dyn = 0,
            const float* pre = nullptr) {
    if (CARVE >= 0)
        HIP_CHECK(hipFuncSetAttribute(reinterpret_cast<const void*>(fills<WORDS, VEC, LDG, REUSE, CARVE, PRE, SYNC, READS, TILE_AT>),
                                      hipFuncAttributePreferredSharedMemoryCarveout, CARVE));
    validation::measure(single, "lds_fills", name, blocks, 0, [&] {
        hipLaunchKernelGGL((fills<WORDS, VEC, LDG, REUSE, CARVE, PRE, SYNC, READS, TILE_AT>), dim3(blocks), dim3(256), dyn, 0, out, g, rounds, pre);
    });
}

int main(int argc, char** argv) {
    const bool single = validation::once(argc, argv);
    const int rounds = 48, sms = 132;
    float *out = nullptr, *g = nullptr;
    const size_t g_floats = size_t(sms) * 8 * rounds * kTile;  // every block's every round
    HIP_CHECK(hipMalloc(&out, size_t(sms) * 8 * 256 * sizeof(float)));
    HIP_CHECK(hipMalloc(&g, g_floats * sizeof(float)));
    HIP_CHECK(hipMemset(g, 0, g_floats * sizeof(float)));
    launch<4, false, true>(single, "ldg4_b1", out, g, sms, rounds);
    launch<1, false, true>(single, "ldg1_b1", out, g, sms, rounds);
    launch<4, true, true>(single, "vec_b1", out, g, sms, rounds);
    launch<4, false, true>(single, "ldg4_b8", out, g, sms * 8, rounds);
    launch<4, false, true>(single, "ldg4_r1_b8", out, g, sms * 8, 1);
    launch<4, false, false>(single, "regs_b8", out, g, sms * 8, rounds);
    // Added in the second run.
    launch<4, false, true>(single, "ldg4_r2_b8", out, g, sms * 8, 2);
    launch<4, false, true>(single, "ldg4_r4_b8", out, g, sms * 8, 4);
    launch<4, false, true>(single, "ldg4_r8_b8", out, g, sms * 8, 8);
    launch<4, false, true>(single, "ldg4_r16_b8", out, g, sms * 8, 16);
    launch<2, false, true>(single, "ldg2_b8", out, g, sms * 8, rounds);
    launch<4, false, true, true>(single, "ldg4_reuse_b8", out, g, sms * 8, rounds);
    launch<4, false, true>(single, "ldg4_b8_dyn20k", out, g, sms * 8, rounds, 20480);
    // Added in the third run.
    constexpr int kPre = 8192;  // floats: 32 KiB a block, 256 KiB an SM
    float* pre = nullptr;
    HIP_CHECK(hipMalloc(&pre, size_t(sms) * 8 * kPre * sizeof(float)));
    HIP_CHECK(hipMemset(pre, 0, size_t(sms) * 8 * kPre * sizeof(float)));
    launch<4, false, true, false, 100>(single, "ldg4_r1_b8_l1min", out, g, sms * 8, 1);
    launch<4, false, true, false, 100>(single, "ldg4_r2_b8_l1min", out, g, sms * 8, 2);
    launch<4, false, true, false, 100>(single, "ldg4_r4_b8_l1min", out, g, sms * 8, 4);
    launch<4, false, true, false, 100>(single, "ldg4_b8_l1min", out, g, sms * 8, rounds);
    launch<4, false, true, false, 0>(single, "ldg4_r4_b8_l1max", out, g, sms * 8, 4);
    launch<4, false, true, false, 0>(single, "ldg4_b8_l1max", out, g, sms * 8, rounds);
    launch<1, false, true, false, 100>(single, "ldg1_b1_l1min", out, g, sms, rounds);
    launch<4, false, true, false, -1, kPre>(single, "ldg4_r1_b8_pre", out, g, sms * 8, 1, 0, pre);
    launch<4, false, true, false, -1, kPre>(single, "ldg4_r2_b8_pre", out, g, sms * 8, 2, 0, pre);
    launch<4, false, true, false, -1, kPre>(single, "ldg4_r4_b8_pre", out, g, sms * 8, 4, 0, pre);
    HIP_CHECK(hipFree(pre));
    launch<4, false, false>(single, "regs_b1", out, g, sms, rounds);
    launch<4, false, false>(single, "regs_b2", out, g, sms * 2, rounds);
    launch<4, false, false>(single, "regs_b4", out, g, sms * 4, rounds);
    launch<4, false, false, false, -1, 0, false>(single, "regs_b8_nosync", out, g, sms * 8, rounds);
    launch<4, false, false, false, -1, 0, true, 0>(single, "regs_b8_reads0", out, g, sms * 8, rounds);
    launch<4, false, false, false, -1, 0, true, 32>(single, "regs_b8_reads32", out, g, sms * 8, rounds);
    // Added in the fourth run.
    launch<4, false, true, false, -1, 0, true, 16, 0>(single, "ldg4_b8_tile_first", out, g, sms * 8, rounds, 20480);
    launch<4, false, true, false, -1, 0, true, 16, 4096>(single, "ldg4_b8_tile_last", out, g, sms * 8, rounds, 20480);
    // Added in the fifth run. (a) The preferred carve-out, the footprint fixed: a percentage of the 228 KiB
    // just under each supported size (the driver went one size higher, at 71 % two: results/h100-ldsfills).
    launch<4, false, true, false, 28>(single, "ldg4_b8_carve64k", out, g, sms * 8, rounds);
    launch<4, false, true, false, 43>(single, "ldg4_b8_carve100k", out, g, sms * 8, rounds);
    launch<4, false, true, false, 57>(single, "ldg4_b8_carve132k", out, g, sms * 8, rounds);
    launch<4, false, true, false, 71>(single, "ldg4_b8_carve164k", out, g, sms * 8, rounds);
    launch<4, false, true, false, 85>(single, "ldg4_b8_carve196k", out, g, sms * 8, rounds);
    // (b) The shared memory in use, the carve-out fixed at 228 KiB: dynamic shared memory a block, the tile
    // at its start.
    launch<4, false, true, false, 100, 0, true, 16, 0>(single, "ldg4_b8_l1min_dyn4k", out, g, sms * 8, rounds, 4096);
    launch<4, false, true, false, 100, 0, true, 16, 0>(single, "ldg4_b8_l1min_dyn8k", out, g, sms * 8, rounds, 8192);
    launch<4, false, true, false, 100, 0, true, 16, 0>(single, "ldg4_b8_l1min_dyn12k", out, g, sms * 8, rounds, 12288);
    launch<4, false, true, false, 100, 0, true, 16, 0>(single, "ldg4_b8_l1min_dyn16k", out, g, sms * 8, rounds, 16384);
    launch<4, false, true, false, 100, 0, true, 16, 0>(single, "ldg4_b8_l1min_dyn20k", out, g, sms * 8, rounds, 20480);
    launch<4, false, true, false, 100, 0, true, 16, 0>(single, "ldg4_b8_l1min_dyn24k", out, g, sms * 8, rounds, 24576);
    // (c) The tile's place, footprint and carve-out fixed: 20 KiB a block, the driver's 196 KiB (between
    // tile_first and tile_last), and 228 KiB (beside l1min_dyn20k).
    launch<4, false, true, false, -1, 0, true, 16, 1024>(single, "ldg4_b8_tile_at4k", out, g, sms * 8, rounds, 20480);
    launch<4, false, true, false, -1, 0, true, 16, 2048>(single, "ldg4_b8_tile_at8k", out, g, sms * 8, rounds, 20480);
    launch<4, false, true, false, -1, 0, true, 16, 3072>(single, "ldg4_b8_tile_at12k", out, g, sms * 8, rounds, 20480);
    launch<4, false, true, false, 100, 0, true, 16, 4096>(single, "ldg4_b8_l1min_dyn20k_at16k", out, g, sms * 8, rounds,
                                                           20480);
    // Added in the seventh run. (a) The carve-out at 228 KiB, between l1min_dyn16k (92 KiB empty: none) and
    // l1min_dyn20k (60 KiB: some).
    launch<4, false, true, false, 100, 0, true, 16, 0>(single, "ldg4_b8_l1min_dyn17k", out, g, sms * 8, rounds, 17408);
    launch<4, false, true, false, 100, 0, true, 16, 0>(single, "ldg4_b8_l1min_dyn18k", out, g, sms * 8, rounds, 18432);
    launch<4, false, true, false, 100, 0, true, 16, 0>(single, "ldg4_b8_l1min_dyn19k", out, g, sms * 8, rounds, 19456);
    launch<4, false, true, false, 100, 0, true, 16, 0>(single, "ldg4_b8_l1min_dyn19_5k", out, g, sms * 8, rounds, 19968);
    // (b) The same empty sizes under a preference of 57 % (164 KiB): 92, 84, 76, 68 and 64 KiB empty.
    launch<4, false, true, false, 57, 0, true, 16, 0>(single, "ldg4_b8_c57_dyn8k", out, g, sms * 8, rounds, 8192);
    launch<4, false, true, false, 57, 0, true, 16, 0>(single, "ldg4_b8_c57_dyn9k", out, g, sms * 8, rounds, 9216);
    launch<4, false, true, false, 57, 0, true, 16, 0>(single, "ldg4_b8_c57_dyn10k", out, g, sms * 8, rounds, 10240);
    launch<4, false, true, false, 57, 0, true, 16, 0>(single, "ldg4_b8_c57_dyn11k", out, g, sms * 8, rounds, 11264);
    launch<4, false, true, false, 57, 0, true, 16, 0>(single, "ldg4_b8_c57_dyn11_5k", out, g, sms * 8, rounds, 11776);
    // (c) 4 blocks an SM against 8, the carve-out at 228 KiB.
    launch<4, false, true, false, 100, 0, true, 16, 0>(single, "ldg4_b4_l1min_dyn41k", out, g, sms * 4, rounds, 41984);
    launch<4, false, true, false, 100, 0, true, 16, 0>(single, "ldg4_b4_l1min_dyn45k", out, g, sms * 4, rounds, 46080);
    launch<4, false, true, false, 100, 0, true, 16, 0>(single, "ldg4_b8_l1min_dyn22k", out, g, sms * 8, rounds, 22528);
    // (d) Fewer rounds, l1min_dyn20k's footprint.
    launch<4, false, true, false, 100, 0, true, 16, 0>(single, "ldg4_r12_b8_l1min_dyn20k", out, g, sms * 8, 12, 20480);
    launch<4, false, true, false, 100, 0, true, 16, 0>(single, "ldg4_r24_b8_l1min_dyn20k", out, g, sms * 8, 24, 20480);
    HIP_CHECK(hipFree(g));
    HIP_CHECK(hipFree(out));
    return 0;
}
