// Global atomics under contention (issue 25, the L2's atomic unit): how fast does the L2 execute the
// lane operations of atomic instructions, and how much slower when they fall on one address or one
// line? 528 blocks of 256 threads (4 an SM, 4,224 warps), each thread adding kIters times (no return:
// RED) to an address chosen by the warp's target, target = warp % T, for T distinct targets:
//   warp_T:   all 32 lanes of a warp to one address, each target its own 128-byte line;
//   packed_T: all 32 lanes to one address, targets 4 bytes apart (32 a line; reduce/atomic's shape);
//   line_T:   lane i to word i of the target's line (32 addresses of one line);
//   lanes_T:  each lane its own line, (warp * 32 + lane) % T (32 lines an instruction).
// Float (f32) and unsigned (u32) adds. The lane offsets come from memory, so that the compiler cannot
// see that a warp's address is uniform (and aggregate it). Prints RESULT lines (harness.h; the size
// field is the lane operations of one launch).
#include "../common/harness.h"

constexpr int kBlocks = 528, kThreads = 256, kIters = 8, kLineWords = 32;
enum Mode { kWarp, kPacked, kLine, kLanes };

template <typename T, int kMode>
__global__ void atomics(T* buf, const unsigned* lane_word, unsigned targets) {
    const unsigned lane = threadIdx.x % 32, warp = blockIdx.x * (kThreads / 32) + threadIdx.x / 32;
    unsigned word;
    if (kMode == kWarp) word = (warp % targets) * kLineWords + lane_word[lane];
    else if (kMode == kPacked) word = warp % targets + lane_word[lane];
    else if (kMode == kLine) word = (warp % targets) * kLineWords + lane_word[lane];
    else word = ((warp * 32 + lane) % targets) * kLineWords + lane_word[0];
    const T v = T(threadIdx.x % 4 + 1);
#pragma unroll 1
    for (int i = 0; i < kIters; ++i) atomicAdd(&buf[word], v);
}

template <typename T, int kMode>
void run(bool single, const char* type, const char* mode, unsigned targets, T* buf, const unsigned* words) {
    char name[64];
    std::snprintf(name, sizeof name, "%s_%s_%u", mode, type, targets);
    const long long ops = (long long)kBlocks * kThreads * kIters;
    validation::measure(single, "atomics", name, ops, 4.0 * ops, [&] {
        hipLaunchKernelGGL((atomics<T, kMode>), dim3(kBlocks), dim3(kThreads), 0, 0, buf, words, targets);
    });
}

template <typename T>
void all(bool single, const char* type, T* buf, const unsigned* zeros, const unsigned* lanes) {
    for (unsigned t : {1u, 8u, 64u, 512u, 4096u}) run<T, kWarp>(single, type, "warp", t, buf, zeros);
    for (unsigned t : {32u, 64u, 1024u}) run<T, kPacked>(single, type, "packed", t, buf, zeros);
    for (unsigned t : {1u, 8u, 64u, 512u, 4096u}) run<T, kLine>(single, type, "line", t, buf, lanes);
    for (unsigned t : {32u, 1024u, 135168u}) run<T, kLanes>(single, type, "lanes", t, buf, zeros);
}

int main(int argc, char** argv) {
    const bool single = validation::once(argc, argv);
    const size_t bytes = 135168ull * kLineWords * 4;  // the most lines a variant touches
    float* f;
    unsigned *u, *zeros, *lanes;
    HIP_CHECK(hipMalloc(&f, bytes));
    HIP_CHECK(hipMalloc(&u, bytes));
    HIP_CHECK(hipMemset(f, 0, bytes));
    HIP_CHECK(hipMemset(u, 0, bytes));
    unsigned h[32];
    for (unsigned i = 0; i < 32; ++i) h[i] = i;
    HIP_CHECK(hipMalloc(&zeros, sizeof h));
    HIP_CHECK(hipMalloc(&lanes, sizeof h));
    HIP_CHECK(hipMemset(zeros, 0, sizeof h));
    HIP_CHECK(hipMemcpy(lanes, h, sizeof h, hipMemcpyHostToDevice));
    all(single, "f32", f, zeros, lanes);
    all(single, "u32", u, zeros, lanes);
    HIP_CHECK(hipFree(f));
    HIP_CHECK(hipFree(u));
    HIP_CHECK(hipFree(zeros));
    HIP_CHECK(hipFree(lanes));
    return 0;
}
