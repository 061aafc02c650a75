// DRAM reads and writes mixed in fixed ratios: does the HBM lose bandwidth
// when it turns its bus around between reads and writes, and how much?
// Each kernel reads R arrays and writes W arrays of float4, element by element,
// in a grid-stride loop of 4 blocks of 256 threads per SM (dram_bandwidth.hip's
// shape). A thread loads U = 4 elements of each input array before it stores
// (U x R loads in flight), then stores their sums to each output array. The
// arrays are far larger than the L2, so what moves is DRAM traffic in the ratio
// R : W. Variants r<R>w<W>: 1:0, 3:1, 2:1, 1:1, 1:2, 1:3, 0:1.
// Variants l2_r1w0, l2_r0w1 and l2_r1w1 stay in the L2 instead: 8.25 MiB per
// array (one iteration), swept 32 times in one launch (the L2's own read and
// store bandwidth; the dirty data stays under the ~27 MB the L2 keeps).
// Variants l2_w_sm66 and l2_w_sm132 store the same 8.25 MiB with one block of
// 1024 threads on each of 66, then 132 SMs: is the store rate a limit of each
// SM's path to the L2 (then half the SMs store half as fast) or of the L2?
// Variant l2_read reads the same 8.25 MiB 32 times, but on pass p a block reads
// what the block 17 p places after it read first, so no SM reads a line twice
// (its L1 cannot serve it) while all of it stays in the L2: the L2's read rate.
// Variant rmw reads and writes the same 256 MiB (x[i] += 1): as many writes as
// reads, but each write goes to the lines a read fetched, in the same rows.
// The element count is U x (threads of the grid) x iterations, so that every
// thread runs the same iterations and no guard is needed: dcusim-tracegen mix
// writes the same instruction stream (--reads R --writes W --unroll 4 --iters I).
#include "../common/harness.h"

constexpr int kUnroll = 4;

template <int R, int W>
__global__ void mix(const float4* __restrict__ in, float4* __restrict__ out, float* sums, long long n, int passes) {
    const long long step = (long long)gridDim.x * blockDim.x;
    float acc = 0;
#pragma unroll 1
    for (int p = 0; p < passes; ++p) {
#pragma unroll 1
        for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += kUnroll * step) {
            float4 v[kUnroll];
#pragma unroll
            for (int u = 0; u < kUnroll; ++u) v[u] = make_float4(1.f, 2.f, 3.f, 4.f);
#pragma unroll
            for (int r = 0; r < R; ++r)
#pragma unroll
                for (int u = 0; u < kUnroll; ++u) {
                    const float4 x = in[r * n + i + u * step];
                    v[u].x += x.x, v[u].y += x.y, v[u].z += x.z, v[u].w += x.w;
                }
#pragma unroll
            for (int w = 0; w < W; ++w)
#pragma unroll
                for (int u = 0; u < kUnroll; ++u) out[w * n + i + u * step] = v[u];
            if (W == 0)
#pragma unroll
                for (int u = 0; u < kUnroll; ++u) acc += v[u].x + v[u].y + v[u].z + v[u].w;
        }
    }
    if (W == 0) sums[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void rotate_read(const float4* __restrict__ in, float* sums, long long n, int passes) {
    const long long step = (long long)gridDim.x * blockDim.x;
    const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    float acc = 0;
#pragma unroll 1
    for (int p = 0; p < passes; ++p) {
        const long long base = (long long)p * 17 * blockDim.x;  // 17 blocks on: under n for 32 passes
        float4 v[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            long long e = i + u * step + base;
            if (e >= n) e -= n;
            v[u] = in[e];
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) acc += v[u].x + v[u].y + v[u].z + v[u].w;
    }
    sums[i] = acc;
}

__global__ void rmw(float4* x, long long n) {
    const long long step = (long long)gridDim.x * blockDim.x;
#pragma unroll 1
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += kUnroll * step) {
        float4 v[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) v[u] = x[i + u * step];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) x[i + u * step] = make_float4(v[u].x + 1, v[u].y + 1, v[u].z + 1, v[u].w + 1);
    }
}

int main(int argc, char** argv) {
    const bool single = validation::once(argc, argv);
    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
    const unsigned blocks = unsigned(prop.multiProcessorCount * 4);
    const long long threads = (long long)blocks * 256;
    // 31 iterations: 256 MiB per array on 132 SMs; 8 with --small (66 MiB).
    const long long iters = validation::small(argc, argv) ? 8 : 31;
    const long long n = kUnroll * threads * iters;
    const size_t bytes = size_t(n) * sizeof(float4);
    float4 *in, *out;
    float* sums;
    HIP_CHECK(hipMalloc(&in, 3 * bytes));
    HIP_CHECK(hipMalloc(&out, 3 * bytes));
    HIP_CHECK(hipMalloc(&sums, sizeof(float) * size_t(threads)));
    HIP_CHECK(hipMemset(in, 0, 3 * bytes));
    HIP_CHECK(hipMemset(out, 0, 3 * bytes));
    auto run = [&](const char* name, int r, int w, void (*k)(const float4*, float4*, float*, long long, int)) {
        validation::measure(single, "rw_mix", name, iters, double(r + w) * double(bytes), [&] {
            hipLaunchKernelGGL(k, dim3(blocks), dim3(256), 0, 0, in, out, sums, n, 1);
        });
    };
    const long long n_l2 = kUnroll * threads, passes = 32;
    auto run_l2 = [&](const char* name, int r, int w, void (*k)(const float4*, float4*, float*, long long, int)) {
        validation::measure(single, "rw_mix", name, passes, double(r + w) * double(n_l2 * sizeof(float4) * passes), [&] {
            hipLaunchKernelGGL(k, dim3(blocks), dim3(256), 0, 0, in, out, sums, n_l2, int(passes));
        });
    };
    run("r1w0", 1, 0, mix<1, 0>);
    run("r3w1", 3, 1, mix<3, 1>);
    run("r2w1", 2, 1, mix<2, 1>);
    run("r1w1", 1, 1, mix<1, 1>);
    run("r1w2", 1, 2, mix<1, 2>);
    run("r1w3", 1, 3, mix<1, 3>);
    run("r0w1", 0, 1, mix<0, 1>);
    validation::measure(single, "rw_mix", "rmw", iters, 2.0 * double(bytes), [&] {
        hipLaunchKernelGGL(rmw, dim3(blocks), dim3(256), 0, 0, out, n);
    });
    run_l2("l2_r1w0", 1, 0, mix<1, 0>);
    run_l2("l2_r0w1", 0, 1, mix<0, 1>);
    run_l2("l2_r1w1", 1, 1, mix<1, 1>);
    validation::measure(single, "rw_mix", "l2_read", passes, double(n_l2 * sizeof(float4) * passes), [&] {
        hipLaunchKernelGGL(rotate_read, dim3(blocks), dim3(256), 0, 0, in, sums, n_l2, int(passes));
    });
    for (unsigned sms : {66u, 132u}) {
        const char* name = sms == 66 ? "l2_w_sm66" : "l2_w_sm132";
        validation::measure(single, "rw_mix", name, sms, double(n_l2 * sizeof(float4) * passes), [&] {
            hipLaunchKernelGGL((mix<0, 1>), dim3(sms), dim3(1024), 0, 0, in, out, sums, n_l2, int(passes));
        });
    }
    HIP_CHECK(hipFree(in));
    HIP_CHECK(hipFree(out));
    HIP_CHECK(hipFree(sums));
    return 0;
}
