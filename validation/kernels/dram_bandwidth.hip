// Sustained DRAM bandwidth far beyond the L2: read-only (float4 loads summed
// per thread, one store per thread), write-only and copy, over 1 GiB, in
// grid-stride loops with 4 blocks of 256 threads per CU. Compare with the
// preset's peak and with the model's streams (bench/, tests/sim/test_bandwidth.cpp).
#include "../common/harness.h"

__global__ void read_sum(const float4* in, float* out, long long n) {
    float s = 0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const float4 v = in[i];
        s += v.x + v.y + v.z + v.w;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void write_only(float4* out, long long n) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        out[i] = make_float4(1.f, 2.f, 3.f, 4.f);
}

__global__ void copy(float4* out, const float4* in, long long n) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        out[i] = in[i];
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv);
    const long long bytes = 1ll << 30;
    const long long n = bytes / sizeof(float4);
    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
    const unsigned blocks = unsigned(prop.multiProcessorCount * 4);
    float4 *a, *b;
    float* sums;
    HIP_CHECK(hipMalloc(&a, bytes));
    HIP_CHECK(hipMalloc(&b, bytes));
    HIP_CHECK(hipMalloc(&sums, sizeof(float) * blocks * 256));
    HIP_CHECK(hipMemset(a, 0, bytes));
    validation::measure(single, "dram_bandwidth", "read", blocks, double(bytes), [&] {
        hipLaunchKernelGGL(read_sum, dim3(blocks), dim3(256), 0, 0, a, sums, n);
    });
    validation::measure(single, "dram_bandwidth", "write", blocks, double(bytes), [&] {
        hipLaunchKernelGGL(write_only, dim3(blocks), dim3(256), 0, 0, b, n);
    });
    validation::measure(single, "dram_bandwidth", "copy", blocks, 2.0 * bytes, [&] {
        hipLaunchKernelGGL(copy, dim3(blocks), dim3(256), 0, 0, b, a, n);
    });
    HIP_CHECK(hipFree(a));
    HIP_CHECK(hipFree(b));
    HIP_CHECK(hipFree(sums));
    return 0;
}
