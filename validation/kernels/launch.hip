// Launch and dispatch overhead: a kernel that does almost nothing (one load
// and a never-taken store per thread), launched with 1 to 16,896 blocks of 256
// threads and of 32 threads. The kernel's cycles against the block count give
// the fixed launch cost and the cost per block.
#include "../common/harness.h"

__global__ void nearly_empty(const int* p, int* q) {
    if (p[threadIdx.x & 31] == 12345) q[blockIdx.x] = 1;
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv);
    int *p, *q;
    HIP_CHECK(hipMalloc(&p, 32 * sizeof(int)));
    HIP_CHECK(hipMalloc(&q, 16896 * sizeof(int)));
    HIP_CHECK(hipMemset(p, 0, 32 * sizeof(int)));
    for (int threads : {256, 32})
        for (int blocks : {1, 132, 1056, 4224, 16896}) {
            char name[48];
            std::snprintf(name, sizeof name, "t%d_b%d", threads, blocks);
            validation::measure(single, "launch", name, blocks, 0, [&] {
                hipLaunchKernelGGL(nearly_empty, dim3(blocks), dim3(threads), 0, 0, p, q);
            });
        }
    HIP_CHECK(hipFree(p));
    HIP_CHECK(hipFree(q));
    return 0;
}
