// Latency and bandwidth: a one-thread pointer chase over footprints from
// 8 KiB to 1 GiB (L1, L2, DRAM latency), and a streaming copy of 1 GiB
// (bandwidth). The chase takes `steps` loads spread evenly over the footprint
// (at least 128 bytes apart, so each is another line): up to 2^20 of them, so
// a large footprint touches more lines than the 60 MB L2 holds. With --small:
// at most 4096 lines per footprint, each visited at least twice (the first
// pass fills the caches), and a 64 MiB copy. With --sample-size: the small
// chase and a 256 MiB copy (65,536 blocks).
#include "../common/harness.h"

__global__ void chase(const unsigned* next, unsigned steps, unsigned* sink) {
    unsigned p = 0;
    for (unsigned i = 0; i < steps; ++i) p = next[p];
    *sink = p;
}

__global__ void copy(float4* out, const float4* in, long long n) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv), small = validation::small(argc, argv);
    const bool sample = validation::sample_size(argc, argv);
    unsigned *next, *sink;
    const long long max_bytes = 1ll << 30;
    HIP_CHECK(hipMalloc(&next, max_bytes));
    HIP_CHECK(hipMalloc(&sink, sizeof(unsigned)));
    const long long footprints[] = {8 << 10, 64 << 10, 512 << 10, 4 << 20, 32 << 20, 256 << 20, 1ll << 30};
    for (long long f : footprints) {
        const unsigned elems = unsigned(f / 4);
        const bool few = small || sample;
        const unsigned steps = few ? unsigned(std::max<long long>(2048, 2 * std::min<long long>(f / 128, 4096)))
                                     : unsigned(std::max<long long>(100000, std::min<long long>(f / 128, 1 << 20)));
        const unsigned lines = few ? unsigned(std::min<long long>(f / 128, 4096)) : steps;
        const unsigned step = std::max(32u, unsigned(f / 4 / lines) / 32 * 32);  // elements, a multiple of 128 bytes
        std::vector<unsigned> h(elems);
        for (unsigned i = 0; i < elems; ++i) h[i] = (i + step) % elems;
        HIP_CHECK(hipMemcpy(next, h.data(), sizeof(unsigned) * elems, hipMemcpyHostToDevice));
        char name[32];
        std::snprintf(name, sizeof name, "chase_%lldK", f >> 10);
        validation::measure(single, "pointer_chase", name, steps, 0, [&] {
            hipLaunchKernelGGL(chase, dim3(1), dim3(1), 0, 0, next, steps, sink);
        });
    }
    HIP_CHECK(hipFree(next));
    HIP_CHECK(hipFree(sink));
    const long long n = (small ? 1ll << 26 : sample ? 1ll << 28 : 1ll << 30) / sizeof(float4);
    float4 *a, *b;
    HIP_CHECK(hipMalloc(&a, n * sizeof(float4)));
    HIP_CHECK(hipMalloc(&b, n * sizeof(float4)));
    HIP_CHECK(hipMemset(a, 0, n * sizeof(float4)));
    validation::measure(single, "stream", small ? "copy_64MiB" : sample ? "copy_256MiB" : "copy_1GiB", n, 2.0 * n * sizeof(float4), [&] {
        hipLaunchKernelGGL(copy, dim3(unsigned(n / 256)), dim3(256), 0, 0, b, a, n);
    });
    HIP_CHECK(hipFree(a));
    HIP_CHECK(hipFree(b));
    return 0;
}
