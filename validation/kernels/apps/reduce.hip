// Sum reductions of n floats three ways: a shared-memory tree (each block adds 1024 inputs, 4 per thread,
// then halves in LDS with a barrier a step, one partial sum a block); warp shuffles over a grid-stride
// loop (one shared word a warp, one atomic a block); and global atomics, every thread adding its four
// inputs into one of 64 counters. n = 2^20 with --small, 2^26 full.
#include "apps.h"

__global__ void reduce_tree(float* out, const float* in) {
    __shared__ float s[256];
    const unsigned t = threadIdx.x, base = blockIdx.x * 1024 + t;
    s[t] = in[base] + in[base + 256] + in[base + 512] + in[base + 768];
    __syncthreads();
    for (unsigned stride = 128; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void reduce_shuffle(float* out, const float* in, int n) {
    __shared__ float warps[256 / APPS_WARP];
    float v = 0;
    for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256) v += in[i];
    v = warp_sum(v);
    const int lane = threadIdx.x % APPS_WARP, w = threadIdx.x / APPS_WARP;
    if (lane == 0) warps[w] = v;
    __syncthreads();
    if (w == 0) {
        v = lane < 256 / APPS_WARP ? warps[lane] : 0;
        v = warp_sum(v);
        if (lane == 0) atomicAdd(out, v);
    }
}

__global__ void reduce_atomic(float* out, const float* in) {
    const unsigned base = blockIdx.x * 1024 + threadIdx.x;
    float v = in[base] + in[base + 256] + in[base + 512] + in[base + 768];
    atomicAdd(&out[(blockIdx.x * 8 + threadIdx.x / 32) % 64], v);
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv), small = validation::small(argc, argv);
    const int n = small ? 1 << 20 : 1 << 26;
    float* in = apps::random_floats(n, 3);
    float* out = apps::zeros<float>(n / 1024);
    validation::measure(single, "reduce", "tree", n, 4.0 * n, [&] {
        hipLaunchKernelGGL(reduce_tree, dim3(n / 1024), dim3(256), 0, 0, out, in);
    });
    validation::measure(single, "reduce", "shuffle", n, 4.0 * n, [&] {
        hipLaunchKernelGGL(reduce_shuffle, dim3(132 * 4), dim3(256), 0, 0, out, in, n);
    });
    validation::measure(single, "reduce", "atomic", n, 4.0 * n, [&] {
        hipLaunchKernelGGL(reduce_atomic, dim3(n / 1024), dim3(256), 0, 0, out, in);
    });
    HIP_CHECK(hipFree(in));
    HIP_CHECK(hipFree(out));
    return 0;
}
