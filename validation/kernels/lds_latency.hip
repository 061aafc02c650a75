// LDS latency against bank conflicts, timed inside the kernel: each lane of
// one block follows a chain of dependent LDS loads, lane i reading word
// i x STRIDE (plus the value loaded, always 0, which the compiler cannot
// know), with 4-byte words on 32 banks: a 32-lane group at stride s needs
// gcd(s, 32) words from one bank. One warp gives the latency of one load; 8
// warps (the lds_bank kernel's block) add the queueing of the others' loads.
// Prints, per variant, the cycles per load of warp 0 (clock64 over 1,024
// loads after 64 of warm-up). Runs on the H200 as on a DCU (wave64: a
// 64-lane wave is two 32-lane groups).
#include "../common/harness.h"

constexpr int kWords = 32 * 33 + 64;
constexpr int kLoads = 1024, kWarm = 64;

template <int STRIDE>
__global__ void chase(long long* cycles, int* sink) {
    __shared__ int buf[kWords];
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) buf[i] = 0;
    __syncthreads();
    const int lane = threadIdx.x % 32;
    const int base = (lane * STRIDE) % kWords;
    int v = 0;
    for (int i = 0; i < kWarm; ++i) v = buf[base + v];
    const long long t0 = clock64();
    for (int i = 0; i < kLoads; ++i) v = buf[base + v];
    const long long t1 = clock64();
    if (threadIdx.x == 0) cycles[0] = t1 - t0;
    if (v == 12345) sink[threadIdx.x] = v;  // never: keeps the chain
}

template <int STRIDE>
void run(long long* d_cycles, int* sink) {
    for (int warps : {1, 8}) {
        hipLaunchKernelGGL(chase<STRIDE>, dim3(1), dim3(32 * warps), 0, 0, d_cycles, sink);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
        long long c = 0;
        HIP_CHECK(hipMemcpy(&c, d_cycles, sizeof c, hipMemcpyDeviceToHost));
        std::printf("LDS_LATENCY warps %d stride %d cycles_per_load %.2f\n", warps, STRIDE, double(c) / kLoads);
    }
}

int main() {
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
    run<33>(d_cycles, sink);
    HIP_CHECK(hipFree(d_cycles));
    HIP_CHECK(hipFree(sink));
    return 0;
}
