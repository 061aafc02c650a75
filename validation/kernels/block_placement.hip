// Which CU (SM) each block of a grid runs on, for grids of a few blocks per
// CU: the suite's spill kernel has 264 blocks of 256 threads, its constant and
// LDS kernels 132. Each block's first thread records its CU and then waits
// `hold` cycles, so that every block of a grid that fits on the GPU at once
// is resident at the same time (none finishes before the last starts) and a
// CU's count is how many blocks it held together.
// Prints per launch: PLACE <threads per block> <blocks> <run> <CUs used>
// <most blocks on one CU> <CUs with the most> <fewest on a used CU>, then
// ORDER <threads> <blocks> <run> <CU of block 0> <CU of block 1> ... for the
// first run of each grid.
#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

#include "../common/device_timers.h"
#include "../common/harness.h"

__global__ void place(unsigned* cu_of, long long hold) {
    if (threadIdx.x != 0) return;
    cu_of[blockIdx.x] = cu_id();
    const long long t0 = cu_cycles();
    while (cu_cycles() - t0 < hold) {
    }
}

int main(int argc, char** argv) {
    validation::once(argc, argv);
    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
    const unsigned cus = unsigned(prop.multiProcessorCount);
    const unsigned max_blocks = 8 * cus;
    unsigned* d_cu;
    HIP_CHECK(hipMalloc(&d_cu, max_blocks * sizeof(unsigned)));
    std::vector<unsigned> cu_of(max_blocks);
    struct Shape {
        unsigned threads, per_cu;  // blocks a CU holds at once (2,048 threads)
    };
    for (Shape s : {Shape{256, 8}, Shape{1024, 2}}) {
        for (unsigned mult2 = 1; mult2 <= 2 * s.per_cu; ++mult2) {  // grids of 0.5 ... per_cu blocks a CU
            const unsigned blocks = mult2 * cus / 2;
            for (int run = 0; run < 3; ++run) {
                hipLaunchKernelGGL(place, dim3(blocks), dim3(s.threads), 0, 0, d_cu, 200000ll);
                HIP_CHECK(hipGetLastError());
                HIP_CHECK(hipDeviceSynchronize());
                HIP_CHECK(hipMemcpy(cu_of.data(), d_cu, blocks * sizeof(unsigned), hipMemcpyDeviceToHost));
                std::map<unsigned, unsigned> count;
                for (unsigned b = 0; b < blocks; ++b) ++count[cu_of[b]];
                unsigned most = 0, fewest = ~0u, at_most = 0;
                for (const auto& kv : count) most = std::max(most, kv.second), fewest = std::min(fewest, kv.second);
                for (const auto& kv : count) at_most += kv.second == most;
                std::printf("PLACE %u %u %d %zu %u %u %u\n", s.threads, blocks, run, count.size(), most, at_most, fewest);
                if (run == 0) {
                    std::printf("ORDER %u %u %d", s.threads, blocks, run);
                    for (unsigned b = 0; b < blocks; ++b) std::printf(" %u", cu_of[b]);
                    std::printf("\n");
                }
            }
        }
    }
    HIP_CHECK(hipFree(d_cu));
    return 0;
}
