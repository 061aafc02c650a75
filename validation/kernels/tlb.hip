// Address translation: one thread chases 64 dependent loads whose lines are
// all distinct (each an L2 and DRAM miss after ncu's cache flush), spread
// 128 B apart (one 8 KiB region), 64 KiB apart, or 2 MiB apart (64 pages of
// 2 MiB). Cycles per load against the spread give the cost of touching a new
// page, which the model does not have (it has no TLBs).
#include "../common/harness.h"

__global__ void chase(const unsigned long long* next, unsigned steps, unsigned long long* sink) {
    unsigned long long p = 0;
    for (unsigned i = 0; i < steps; ++i) p = next[p];
    *sink = p;
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv);
    const long long span = 64ll << 21;  // 128 MiB: 64 x 2 MiB
    unsigned long long *next, *sink;
    HIP_CHECK(hipMalloc(&next, span));
    HIP_CHECK(hipMalloc(&sink, sizeof(unsigned long long)));
    std::vector<unsigned long long> h(span / 8, 0);
    for (long long stride : {128ll, 64ll << 10, 2ll << 20}) {
        const long long step = stride / 8;  // elements
        std::fill(h.begin(), h.end(), 0);
        for (int i = 0; i < 64; ++i) h[i * step] = (i + 1) % 64 * step;  // element index of the next
        HIP_CHECK(hipMemcpy(next, h.data(), span, hipMemcpyHostToDevice));
        char name[32];
        std::snprintf(name, sizeof name, "stride_%lldK", stride >> 10);
        if (stride < 1024) std::snprintf(name, sizeof name, "stride_%lld", stride);
        validation::measure(single, "tlb", name, 64, 0, [&] {
            hipLaunchKernelGGL(chase, dim3(1), dim3(1), 0, 0, next, 64u, sink);
        });
    }
    HIP_CHECK(hipFree(next));
    HIP_CHECK(hipFree(sink));
    return 0;
}
