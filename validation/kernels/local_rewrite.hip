// Does the L2 write private (local) data back to DRAM as it does global data? The test set's spill
// kernel (regspill/spilled_48: a 192-byte frame a thread, 26 MB over its grid, rewritten each of 8
// rounds) writes 41.9 MB to DRAM on the H200, more than its frame, where the model, holding the frame
// dirty in the L2, writes 23.5; the suite's spill kernel writes 4.57 MB for 3.19. Each thread here owns
// N = 48 floats. Round 0 stores them; each of the R - 1 rounds after loads and stores them all again;
// then the thread adds them up into out[t]. `local`: a volatile private array (every access goes to
// local memory, whose words the GPU interleaves lane by lane: results/h200-locallines). `global`: a
// buffer with the same layout, each warp's frame N lines of 32 words, element i of lane l at word
// i x 32 + l. Same lines, same order, same bytes: any difference in DRAM traffic is the memory
// space's. Grids of 264 to 2,112 blocks of 256 threads (frames of 13 to 104 MB, the L2 60 MiB) for
// R = 1 and 2; 264, 528 and 1,056 for R = 8, with in[] zero (every lane of a warp stores the same
// words). Then, `_rand`, 264, 528 and 1,056 blocks again with a distinct value in each thread: on an
// H100 the zero frames stayed in the L2 past its size, which data compression would explain. Prints
// RESULT lines (harness.h; size field R x 100,000 + blocks).
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "../common/harness.h"

constexpr int kN = 48;

// `zero` is 0, read from memory: an index the compiler cannot know keeps the frame out of registers
// (with constant indices nvcc keeps even a volatile array in registers: no LDL or STL in its SASS).
__global__ void local_frame(float* out, const float* in, const int* zero, int rounds) {
    volatile float frame[kN];  // volatile: every access goes to local memory
    const int t = blockIdx.x * blockDim.x + threadIdx.x, z = *zero;
    const float x = in[t];
#pragma unroll
    for (int i = 0; i < kN; ++i) frame[i + z] = x + float(i);
    for (int r = 1; r < rounds; ++r) {
#pragma unroll
        for (int i = 0; i < kN; ++i) frame[i + z] = frame[i + z] * 0.5f + 1.0f;
    }
    float acc = 0;
#pragma unroll
    for (int i = 0; i < kN; ++i) acc += frame[i + z];
    out[t] = acc;
}

__global__ void global_frame(float* out, const float* in, volatile float* frames, int rounds) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
    volatile float* frame = frames + size_t(t / 32) * kN * 32 + lane;  // element i at frame[i * 32]
    const float x = in[t];
#pragma unroll
    for (int i = 0; i < kN; ++i) frame[i * 32] = x + float(i);
    for (int r = 1; r < rounds; ++r) {
#pragma unroll
        for (int i = 0; i < kN; ++i) frame[i * 32] = frame[i * 32] * 0.5f + 1.0f;
    }
    float acc = 0;
#pragma unroll
    for (int i = 0; i < kN; ++i) acc += frame[i * 32];
    out[t] = acc;
}

// Every variant of one input: R = 1, 2 and 8 at each grid (R = 8 not at 792 and 2,112 blocks: the
// model's traces stay small), local then global.
void run_all(bool single, const float* in, float* out, float* frames, const int* zero, const char* suffix,
             std::initializer_list<int> grids) {
    for (int rounds : {1, 2, 8})
        for (int blocks : grids) {
            if (rounds == 8 && (blocks == 792 || blocks == 2112)) continue;
            const double bytes = 4.0 * kN * 256 * blocks * (2 * rounds - 1);  // the frames' stores and loads
            char name[48];
            std::snprintf(name, sizeof name, "local_r%d_b%d%s", rounds, blocks, suffix);
            validation::measure(single, "local_rewrite", name, rounds * 100000ll + blocks, bytes, [&] {
                hipLaunchKernelGGL(local_frame, dim3(blocks), dim3(256), 0, 0, out, in, zero, rounds);
            });
            std::snprintf(name, sizeof name, "global_r%d_b%d%s", rounds, blocks, suffix);
            validation::measure(single, "local_rewrite", name, rounds * 100000ll + blocks, bytes, [&] {
                hipLaunchKernelGGL(global_frame, dim3(blocks), dim3(256), 0, 0, out, in, frames, rounds);
            });
        }
}

int main(int argc, char** argv) {
    const bool single = validation::once(argc, argv);
    const int max_blocks = 2112;
    const size_t threads = size_t(max_blocks) * 256;
    float *in, *out, *frames;
    int* zero;
    HIP_CHECK(hipMalloc(&zero, sizeof(int)));
    HIP_CHECK(hipMemset(zero, 0, sizeof(int)));
    HIP_CHECK(hipMalloc(&in, sizeof(float) * threads));
    HIP_CHECK(hipMalloc(&out, sizeof(float) * threads));
    HIP_CHECK(hipMalloc(&frames, sizeof(float) * threads * kN));
    HIP_CHECK(hipMemset(in, 0, sizeof(float) * threads));
    run_all(single, in, out, frames, zero, "", {264, 528, 792, 1056, 2112});
    // The same with a different value in every thread's frame: lines of 32 distinct words. With
    // in[] zero every lane of a warp stores the same word, and a line of 32 equal words is what a
    // compressing memory system keeps in little room.
    std::vector<float> values(threads);
    uint32_t x = 12345;
    for (float& v : values) v = float((x = x * 1664525u + 1013904223u) >> 8);
    HIP_CHECK(hipMemcpy(in, values.data(), sizeof(float) * threads, hipMemcpyHostToDevice));
    run_all(single, in, out, frames, zero, "_rand", {264, 528, 1056});
    HIP_CHECK(hipFree(in));
    HIP_CHECK(hipFree(out));
    HIP_CHECK(hipFree(frames));
    HIP_CHECK(hipFree(zero));
    return 0;
}
