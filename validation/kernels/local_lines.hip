// Private (local) memory layout: each thread fills a 64-float private array
// (dynamically indexed, so it lives in local memory), then loads priv[(lane x
// S + i) mod 64]: all lanes at one offset (S = 0), or lane l S words further
// than lane l-1 (S = 1, 2, 4, 8, 16). One block of 1,024 threads per SM,
// `iters` loads per thread. ncu's sectors per load show the layout. The times
// do not measure the L1: 256 KiB of private data per SM is more than it holds
// (l1_tags measures the L1's rate).
#include "../common/harness.h"

template <int S>
__global__ void local_lines(const float* in, float* out, int iters) {
    float priv[64];
    const int lane = threadIdx.x & 31;
    for (int j = 0; j < 64; ++j) priv[j] = in[(j * blockDim.x + threadIdx.x) & 4095];
    float acc = 0;
    for (int i = 0; i < iters; ++i) acc += priv[(lane * S + i) & 63];
    if (acc == -1.0f) out[blockIdx.x * blockDim.x + threadIdx.x] = acc;  // keeps the loads
}

template <int S>
void run(bool single, const float* in, float* out, int iters) {
    char name[16];
    std::snprintf(name, sizeof name, "s%d", S);
    // size: warp loads per SM (32 warps x iters)
    validation::measure(single, "local_lines", name, 32ll * iters, 0, [&] {
        hipLaunchKernelGGL(local_lines<S>, dim3(132), dim3(1024), 0, 0, in, out, iters);
    });
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv);
    const int iters = 1024;
    float *in, *out;
    HIP_CHECK(hipMalloc(&in, 4096 * sizeof(float)));
    HIP_CHECK(hipMalloc(&out, 132 * 1024 * sizeof(float)));
    HIP_CHECK(hipMemset(in, 0, 4096 * sizeof(float)));
    run<0>(single, in, out, iters);
    run<1>(single, in, out, iters);
    run<2>(single, in, out, iters);
    run<4>(single, in, out, iters);
    run<8>(single, in, out, iters);
    run<16>(single, in, out, iters);
    HIP_CHECK(hipFree(in));
    HIP_CHECK(hipFree(out));
    return 0;
}
