// Which L2 slices a few lines share (issue 25, the atomics' slice map): the same atomic work on one line,
// then split between two lines D bytes apart. 528 blocks of 256 threads (4,224 warps), each lane adding
// kIters times (RED, u32) to word `lane` of its warp's line: one request of 4 sectors a warp instruction,
// which one slice's atomic unit takes ~4.97 cycles to work (validation/results/h200-atomics, line_1). With
// the warps alternating between two lines, a launch takes about one line's time where the lines share a
// slice and half of it where they do not. D runs over 128 B to 2 MiB from two bases (the buffer's start,
// and 1,152 bytes into it: other address bits under the same distances); at 1 and 2 MiB the second line
// may lie in another 2 MiB page, whose physical place the slice hash may see. With --scan, the second line
// runs instead over every 256-byte quarter of the first MiB (scan_D, D = 256 to 1 MiB - 256): which of
// them share the first line's slice, the map's whole pattern over 2,048 chunks of 512 bytes (event
// timing only: 4,096 variants). Prints RESULT lines (harness.h; the size field is the lane operations
// of one launch).
#include "../common/harness.h"

constexpr int kBlocks = 528, kThreads = 256, kIters = 8, kLineWords = 32;

__global__ void pair(unsigned* buf, const unsigned* lane_word, unsigned first, unsigned second) {
    const unsigned lane = threadIdx.x % 32, warp = blockIdx.x * (kThreads / 32) + threadIdx.x / 32;
    // The lane's word comes from memory, so that the compiler cannot merge the warp's adds.
    const unsigned word = (warp % 2 ? second : first) + lane_word[lane];
#pragma unroll 1
    for (int i = 0; i < kIters; ++i) atomicAdd(&buf[word], 1u);
}

void run(bool single, const char* name, unsigned* buf, const unsigned* lanes, unsigned first_byte, unsigned second_byte) {
    const long long ops = (long long)kBlocks * kThreads * kIters;
    validation::measure(single, "slice_pairs", name, ops, 4.0 * ops, [&] {
        hipLaunchKernelGGL(pair, dim3(kBlocks), dim3(kThreads), 0, 0, buf, lanes, first_byte / 4, second_byte / 4);
    });
}

int main(int argc, char** argv) {
    const bool single = validation::once(argc, argv), scan = validation::flag(argc, argv, "--scan");
    const unsigned kBases[] = {0, 1152};
    const unsigned kDistances[] = {128, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 8192,
                                   16384, 32768, 65536, 1u << 20, 2u << 20};
    const size_t bytes = (2u << 20) + 4096;  // the farthest line: 1,152 + 2 MiB, and its 128 bytes
    unsigned *buf, *lanes;
    HIP_CHECK(hipMalloc(&buf, bytes));
    HIP_CHECK(hipMemset(buf, 0, bytes));
    unsigned h[kLineWords];
    for (unsigned i = 0; i < kLineWords; ++i) h[i] = i;
    HIP_CHECK(hipMalloc(&lanes, sizeof h));
    HIP_CHECK(hipMemcpy(lanes, h, sizeof h, hipMemcpyHostToDevice));
    char name[64];
    if (scan) {
        run(single, "one_0", buf, lanes, 0, 0);
        for (unsigned d = 256; d < (1u << 20); d += 256) {
            std::snprintf(name, sizeof name, "scan_%u", d);
            run(single, name, buf, lanes, 0, d);
        }
    } else {
        for (unsigned base : kBases) {
            std::snprintf(name, sizeof name, "one_%u", base);
            run(single, name, buf, lanes, base, base);  // both halves on one line: the slice's whole work
            for (unsigned d : kDistances) {
                std::snprintf(name, sizeof name, "pair_%u_%u", base, d);
                run(single, name, buf, lanes, base, base + d);
            }
        }
    }
    HIP_CHECK(hipFree(buf));
    HIP_CHECK(hipFree(lanes));
    return 0;
}
