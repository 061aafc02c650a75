// L1 tag throughput: warps load 4-byte words from a 16 KiB buffer per block
// (L1-resident after the first pass), each warp instruction touching K = 1,
// 2, 4, 8, 16 or 32 distinct 128-byte lines (lane l reads line l mod K). One
// block of 1024 threads per SM, `iters` independent loads per thread. Cycles
// per warp load per SM against K give the lines the L1 looks up per cycle.
#include "../common/harness.h"

template <int K>
__global__ void lines(const float* in, float* out, int iters) {
    const float* b = in + blockIdx.x * 4096;  // 128 lines of 128 bytes
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int word = (lane / K) % 32;
    float acc = 0;
    for (int i = 0; i < iters; ++i) {
        const int line = (i * K + warp * 4 + lane % K) & 127;
        acc += b[line * 32 + word];
    }
    if (acc == -1.0f) out[blockIdx.x * blockDim.x + threadIdx.x] = acc;  // keeps the loads
}

template <int K>
void run(bool single, const float* in, float* out, int iters) {
    char name[16];
    std::snprintf(name, sizeof name, "k%d", K);
    // size: warp loads per SM (32 warps x iters)
    validation::measure(single, "l1_lines", name, 32ll * iters, 0, [&] {
        hipLaunchKernelGGL(lines<K>, dim3(132), dim3(1024), 0, 0, in, out, iters);
    });
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv);
    const int iters = 1024;
    float *in, *out;
    HIP_CHECK(hipMalloc(&in, 132 * 4096 * sizeof(float)));
    HIP_CHECK(hipMalloc(&out, 132 * 1024 * sizeof(float)));
    HIP_CHECK(hipMemset(in, 0, 132 * 4096 * sizeof(float)));
    run<1>(single, in, out, iters);
    run<2>(single, in, out, iters);
    run<4>(single, in, out, iters);
    run<8>(single, in, out, iters);
    run<16>(single, in, out, iters);
    run<32>(single, in, out, iters);
    HIP_CHECK(hipFree(in));
    HIP_CHECK(hipFree(out));
    return 0;
}
