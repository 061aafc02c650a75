// Constant-cache latency against the number of distinct addresses a warp
// reads, timed inside the kernel: each lane of one block follows a chain of
// dependent __constant__ loads, lane i reading element (i mod K) plus the value
// it loaded last (always 0, which the compiler cannot know). The constant
// cache serves one address per request, so a warp's load takes K requests.
// One warp gives the latency; 8 warps (the constant kernel's block) add the
// queueing of the others' requests. Prints, per variant, the cycles per load
// of warp 0 (clock64 over 1,024 loads after 64 of warm-up).
#include "../common/harness.h"

__constant__ int table[64];

constexpr int kLoads = 1024, kWarm = 64;

template <int K>
__global__ void chase(long long* cycles, int* sink) {
    const int base = threadIdx.x % 32 % K;
    int v = 0;
    for (int i = 0; i < kWarm; ++i) v = table[base + v];
    const long long t0 = clock64();
    for (int i = 0; i < kLoads; ++i) v = table[base + v];
    const long long t1 = clock64();
    if (threadIdx.x == 0) cycles[0] = t1 - t0;
    if (v == 12345) sink[threadIdx.x] = v;  // never: keeps the chain
}

template <int K>
void run(long long* d_cycles, int* sink) {
    for (int warps : {1, 8}) {
        hipLaunchKernelGGL(chase<K>, dim3(1), dim3(32 * warps), 0, 0, d_cycles, sink);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
        long long c = 0;
        HIP_CHECK(hipMemcpy(&c, d_cycles, sizeof c, hipMemcpyDeviceToHost));
        std::printf("CONST_LATENCY warps %d distinct %d cycles_per_load %.2f\n", warps, K, double(c) / kLoads);
    }
}

int main() {
    int zeros[64] = {};
    HIP_CHECK(hipMemcpyToSymbol(table, zeros, sizeof zeros));
    long long* d_cycles;
    int* sink;
    HIP_CHECK(hipMalloc(&d_cycles, sizeof(long long)));
    HIP_CHECK(hipMalloc(&sink, 256 * sizeof(int)));
    run<1>(d_cycles, sink);
    run<2>(d_cycles, sink);
    run<4>(d_cycles, sink);
    run<8>(d_cycles, sink);
    run<16>(d_cycles, sink);
    run<32>(d_cycles, sink);
    HIP_CHECK(hipFree(d_cycles));
    HIP_CHECK(hipFree(sink));
    return 0;
}
