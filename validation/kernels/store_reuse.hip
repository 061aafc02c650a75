// Why stores into lines already in the L2 go slower than stores into new
// lines (results/h200-storepath: 2,117-2,213 B/clk against 2,232-2,337). The
// same store kernel (`measured`, grid-stride float4 stores over 16 MiB, 4
// blocks of 256 threads an SM) runs after a preparation that leaves its lines
// absent from the L2, present and clean, or present and dirty:
//   absent: read 128 MiB of another buffer (empties the L2 of everything else);
//   clean:  the same, then read the 16 MiB (the same grid: the same SMs);
//   dirty:  the same, then store the 16 MiB.
// Profile only `measured`, with the caches left as they are:
//   ncu --cache-control none -k regex:measured ...
// The events time the preparation too; only ncu's cycles of `measured` count.
#include "../common/harness.h"

__global__ void measured(float4* out, long long n) {
    const long long step = (long long)gridDim.x * blockDim.x;
#pragma unroll 1
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += step)
        out[i] = make_float4(1.f, 2.f, 3.f, 4.f);
}

__global__ void prep_store(float4* out, long long n) {
    const long long step = (long long)gridDim.x * blockDim.x;
#pragma unroll 1
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += step)
        out[i] = make_float4(5.f, 6.f, 7.f, 8.f);
}

__global__ void prep_load(const float4* in, float* sink, long long n) {
    const long long step = (long long)gridDim.x * blockDim.x;
    float acc = 0;
#pragma unroll 1
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += step) acc += in[i].x;
    sink[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv);
    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
    const unsigned blocks = unsigned(prop.multiProcessorCount * 4);
    const long long n = (16ll << 20) / (long long)sizeof(float4), big = (128ll << 20) / (long long)sizeof(float4);
    float4 *a, *c;
    float* sink;
    HIP_CHECK(hipMalloc(&a, n * sizeof(float4)));
    HIP_CHECK(hipMalloc(&c, big * sizeof(float4)));
    HIP_CHECK(hipMalloc(&sink, blocks * 256 * sizeof(float)));
    HIP_CHECK(hipMemset(a, 0, n * sizeof(float4)));
    HIP_CHECK(hipMemset(c, 0, big * sizeof(float4)));
    for (const char* state : {"absent", "clean", "dirty"}) {
        const char s = state[0];
        validation::measure(single, "store_reuse", state, n * 16, double(n * 16), [&] {
            hipLaunchKernelGGL(prep_load, dim3(blocks), dim3(256), 0, 0, c, sink, big);
            if (s == 'c') hipLaunchKernelGGL(prep_load, dim3(blocks), dim3(256), 0, 0, a, sink, n);
            if (s == 'd') hipLaunchKernelGGL(prep_store, dim3(blocks), dim3(256), 0, 0, a, n);
            hipLaunchKernelGGL(measured, dim3(blocks), dim3(256), 0, 0, a, n);
        });
    }
    HIP_CHECK(hipFree(a));
    HIP_CHECK(hipFree(c));
    HIP_CHECK(hipFree(sink));
    return 0;
}
