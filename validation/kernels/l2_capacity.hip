// How much the L2 holds for the whole GPU, and what evicts dirty lines.
//  reread: every thread reads its part of a buffer (4-byte words, a grid-
//    stride loop over a GPU-filling grid), then reads it again, in one kernel,
//    with loads that skip the L1. "same": each thread reads again what it
//    read; "other": what the thread half a grid away read, so a line comes
//    back to another SM. Under a profiler that empties the caches first, the
//    DRAM bytes read are the footprint plus what the second pass missed.
//  write_read: every thread writes its part of a 4 MiB output, then streams
//    through R MiB of reads. The DRAM bytes written show how much read traffic
//    it takes to evict the dirty output.
// The model's answer for an L2 of C bytes with LRU: reread misses nothing up
// to a footprint near C and everything past it; write_read writes nothing back
// until R + 4 MiB passes C.
#include "../common/harness.h"

// A load that the L2 serves: the H200's L1 (256 KiB per SM) would otherwise
// hold small footprints; a Z100's L1 of 16 KiB holds none of these.
__device__ float load_l2(const float* p) {
#if defined(__CUDA_ARCH__)
    float v;
    asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
#else
    return *p;
#endif
}

__global__ void reread(const float* in, long long n, long long shift, float* sink) {
    const long long threads = gridDim.x * (long long)blockDim.x;
    const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    float acc = 0.f;
    for (long long i = t; i < n; i += threads) acc += load_l2(in + i);
    for (long long i = (t + shift) % threads; i < n; i += threads) acc += load_l2(in + i);
    if (acc == 12345.f) *sink = acc;  // keeps the loads; never true (the buffer is zero)
}

__global__ void write_read(float* out, long long w, const float* in, long long r, float* sink) {
    const long long threads = gridDim.x * (long long)blockDim.x;
    const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    for (long long i = t; i < w; i += threads) out[i] = 1.f;
    float acc = 0.f;
    for (long long i = t; i < r; i += threads) acc += load_l2(in + i);
    if (acc == 12345.f) *sink = acc;
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv);
    const long long max_bytes = 128ll << 20;
    float *in, *out, *sink;
    HIP_CHECK(hipMalloc(&in, max_bytes));
    HIP_CHECK(hipMalloc(&out, 4 << 20));
    HIP_CHECK(hipMalloc(&sink, sizeof(float)));
    HIP_CHECK(hipMemset(in, 0, max_bytes));
    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
    const unsigned blocks = unsigned(prop.multiProcessorCount) * 4, threads = 256;
    const long long grid_threads = (long long)blocks * threads;
    char name[48];
    for (const char* mode : {"same", "other"}) {
        const long long shift = mode[0] == 's' ? 0 : grid_threads / 2;
        for (long long mib : {8, 16, 24, 32, 40, 48, 56, 64, 96}) {
            const long long n = (mib << 20) / 4;
            std::snprintf(name, sizeof name, "reread_%s_%lldMiB", mode, mib);
            validation::measure(single, "l2_capacity", name, mib << 20, 2.0 * (mib << 20), [&] {
                hipLaunchKernelGGL(reread, dim3(blocks), dim3(threads), 0, 0, in, n, shift, sink);
            });
        }
    }
    for (long long mib : {0, 16, 32, 48, 64, 96, 128}) {
        std::snprintf(name, sizeof name, "write4MiB_read_%lldMiB", mib);
        validation::measure(single, "l2_capacity", name, mib << 20, double((4 << 20) + (mib << 20)), [&] {
            hipLaunchKernelGGL(write_read, dim3(blocks), dim3(threads), 0, 0, out, (4ll << 20) / 4, in, (mib << 20) / 4,
                               sink);
        });
    }
    HIP_CHECK(hipFree(in));
    HIP_CHECK(hipFree(out));
    HIP_CHECK(hipFree(sink));
    return 0;
}
