// Lanes of one atomic instruction that share addresses (issue 25, the histograms' requests): a warp's 32
// lanes add to one line's words, K lanes on each word (32 / K words), the words side by side (`compact`:
// lane i on word i / K, the first 32 / K words) or spread over the line (`spread`: word (i / K) x K, every
// sector touched while K <= 8). K = 1 is atomics.hip's line_T, K = 32 its warp_T. How does the L1 split such
// an instruction (ncu: the L2's requests and sectors an instruction), and what does each part cost the slice?
// The test set's histogram/global_atomics makes such requests (8 or so lanes over 3-5 bins of a line). 528
// blocks of 256 threads (4,224 warps), each lane adding kIters times (RED, u32) to its word of the line
// warp % T, over T = 1 line (one slice: its atomic unit alone sets the pace) and T = 64. The lane's word
// comes from a table in memory, so that the compiler cannot see the warp's addresses (and merge them).
// Prints RESULT lines (harness.h; the size field is the lane operations of one launch).
#include "../common/harness.h"

constexpr int kBlocks = 528, kThreads = 256, kIters = 8, kLineWords = 32;

__global__ void dups(unsigned* buf, const unsigned* lane_word, unsigned targets) {
    const unsigned lane = threadIdx.x % 32, warp = blockIdx.x * (kThreads / 32) + threadIdx.x / 32;
    const unsigned word = (warp % targets) * kLineWords + lane_word[lane];
    const unsigned v = threadIdx.x % 4 + 1;  // atomics.hip's operand: the same SASS as its line_T
#pragma unroll 1
    for (int i = 0; i < kIters; ++i) atomicAdd(&buf[word], v);
}

int main(int argc, char** argv) {
    const bool single = validation::once(argc, argv);
    const unsigned kTargets[] = {1, 64};
    const unsigned kShares[] = {1, 2, 4, 8, 16, 32};  // K: lanes on each word
    unsigned *buf, *lanes;
    HIP_CHECK(hipMalloc(&buf, 64 * kLineWords * sizeof(unsigned)));
    HIP_CHECK(hipMemset(buf, 0, 64 * kLineWords * sizeof(unsigned)));
    HIP_CHECK(hipMalloc(&lanes, kLineWords * sizeof(unsigned)));
    const long long ops = (long long)kBlocks * kThreads * kIters;
    char name[64];
    for (unsigned t : kTargets)
        for (unsigned k : kShares)
            for (int spread = 0; spread < 2; ++spread) {
                if (spread && (k == 1 || k == 32)) continue;  // both layouts are one there
                unsigned h[kLineWords];
                for (unsigned i = 0; i < kLineWords; ++i) h[i] = spread ? i / k * k : i / k;
                HIP_CHECK(hipMemcpy(lanes, h, sizeof h, hipMemcpyHostToDevice));
                std::snprintf(name, sizeof name, "%s_%u_%u", spread ? "spread" : "compact", k, t);
                validation::measure(single, "atomic_dups", name, ops, 4.0 * ops, [&] {
                    hipLaunchKernelGGL(dups, dim3(kBlocks), dim3(kThreads), 0, 0, buf, lanes, t);
                });
            }
    HIP_CHECK(hipFree(buf));
    HIP_CHECK(hipFree(lanes));
    return 0;
}
