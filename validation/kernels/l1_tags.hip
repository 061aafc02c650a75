// L1 tag rate, global and private: each warp load touches R distinct lines
// (global: 128-byte lines of a 16 KiB buffer per block; private: R distinct
// words of a 16-float private array, which the word-interleaved layout puts in
// R lines), with lane l's word at byte 4l of its line, so no 8-byte L1 bank
// serves more than two lanes (l1_lines shows the banks otherwise set the
// pace). One block of 1,024 threads per SM, everything L1-resident, `iters`
// loads per thread. Cycles per warp load per SM against R give the lines the
// L1 looks up per cycle.
#include "../common/harness.h"

template <int R>
__global__ void global_rows(const float* in, float* out, int iters, int salt) {
    const float* b = in + blockIdx.x * 4096;  // 128 lines of 128 bytes
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    float acc = 0;
    for (int i = 0; i < iters; ++i) acc += b[((i * R + warp * 4 + lane % R + salt) & 127) * 32 + lane];
    if (acc == -1.0f) out[blockIdx.x * blockDim.x + threadIdx.x] = acc;  // keeps the loads
}

template <int R>
__global__ void local_rows(const float* in, float* out, int iters, int salt) {
    float priv[16];
    const int lane = threadIdx.x & 31;
    for (int j = 0; j < 16; ++j) priv[j] = in[(j * blockDim.x + threadIdx.x) & 4095];
    float acc = 0;
    for (int i = 0; i < iters; ++i) acc += priv[(lane % R + i + salt) & 15];
    if (acc == -1.0f) out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int R>
void run(bool single, const float* in, float* out, int iters) {
    char name[16];
    std::snprintf(name, sizeof name, "global_r%d", R);
    validation::measure(single, "l1_tags", name, 32ll * iters, 0, [&] {
        hipLaunchKernelGGL(global_rows<R>, dim3(132), dim3(1024), 0, 0, in, out, iters, 0);
    });
    if (R > 16) return;
    std::snprintf(name, sizeof name, "local_r%d", R);
    validation::measure(single, "l1_tags", name, 32ll * iters, 0, [&] {
        hipLaunchKernelGGL(local_rows<R>, dim3(132), dim3(1024), 0, 0, in, out, iters, 0);
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
