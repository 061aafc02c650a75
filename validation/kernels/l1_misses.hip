// How many L1 misses one SM keeps in flight: a single block of W warps,
// each lane loading U words from U distinct, never-touched lines of DRAM
// (32 lines per warp load, all U loads issued before any is used). The time
// until the last warp has its data grows with the lines in flight,
// W x U x 32, by one DRAM latency per full set of miss registers.
// Usage: l1_misses; prints per variant: MISSES <lines in flight> <cycles, median of 5>; then CLEAN and
// DIRTY lines for the small blocks, each launch after the L2 was left clean or dirty.
#include <algorithm>

#include "../common/harness.h"

template <int U>
__global__ void misses(const float* base, long long line_words, long long first, unsigned long long* out) {
    const int w = threadIdx.x / 32, lane = threadIdx.x % 32;
    // Line first + (w x 32 + lane) x U + u; word 0 of each 128-byte line.
    const float* p = base + (first + ((long long)w * 32 + lane) * U) * line_words;
    __syncthreads();
    const long long c0 = clock64();
    float s = 0;
    float v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = p[u * line_words];
#pragma unroll
    for (int u = 0; u < U; ++u) s += v[u];
    __syncthreads();
    const long long c1 = clock64();
    if (threadIdx.x == 0) out[0] = (unsigned long long)(c1 - c0);
    if (s == 12345.f) out[1] = 1;
}

// Reads n floats (the L2 then holds clean lines: dirty ones were written back as they went).
__global__ void sweep(const float* p, long long n, float* sink) {
    float s = 0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) s += p[i];
    if (s == 12345.f) *sink = s;
}

template <int U>
void run(int warps, const float* base, unsigned long long* out, long long& next_line, const char* label = "MISSES",
         void (*prep)() = nullptr) {
    std::vector<unsigned long long> t;
    for (int rep = 0; rep < 5; ++rep) {
        if (prep) prep();
        hipLaunchKernelGGL(misses<U>, dim3(1), dim3(32 * warps), 0, 0, base, 32ll, next_line, out);
        next_line += 32ll * warps * U;
        HIP_CHECK(hipGetLastError());
        unsigned long long c = 0;
        HIP_CHECK(hipMemcpy(&c, out, sizeof c, hipMemcpyDeviceToHost));
        t.push_back(c);
    }
    std::sort(t.begin(), t.end());
    std::printf("%s %d %llu warps %d loads %d\n", label, warps * 32 * U, t[2], warps, U);
}

int main() {
    const long long bytes = 4ll << 30;  // fresh lines for every launch: 4 GiB / 128 B
    float* base;
    unsigned long long* out;
    HIP_CHECK(hipMalloc(&base, bytes));
    HIP_CHECK(hipMalloc(&out, 2 * sizeof(unsigned long long)));
    HIP_CHECK(hipMemset(base, 0, bytes));
    long long next_line = 0;  // each launch reads lines no launch before it read
    for (int warps : {1, 2, 4, 8, 16, 32}) {
        run<1>(warps, base, out, next_line);
        run<2>(warps, base, out, next_line);
        run<4>(warps, base, out, next_line);
        run<8>(warps, base, out, next_line);
    }
    // The same small blocks again, each launch right after an L2 left clean (a 256 MiB read), then
    // right after one left dirty (64 MiB written): is the first sweep's unevenness the dirty data
    // its hipMemset left behind?
    static float *scratch, *sink;
    HIP_CHECK(hipMalloc(&scratch, 256ll << 20));
    HIP_CHECK(hipMalloc(&sink, sizeof(float)));
    auto clean = [] {
        hipLaunchKernelGGL(sweep, dim3(1056), dim3(256), 0, 0, scratch, (256ll << 20) / 4, sink);
        HIP_CHECK(hipDeviceSynchronize());
    };
    auto dirty = [] {
        HIP_CHECK(hipMemset(scratch, 1, 64ll << 20));
        HIP_CHECK(hipDeviceSynchronize());
    };
    for (int warps : {1, 2, 4}) {
        run<2>(warps, base, out, next_line, "CLEAN", clean);
        run<4>(warps, base, out, next_line, "CLEAN", clean);
        run<2>(warps, base, out, next_line, "DIRTY", dirty);
        run<4>(warps, base, out, next_line, "DIRTY", dirty);
    }
    HIP_CHECK(hipFree(scratch));
    HIP_CHECK(hipFree(sink));
    HIP_CHECK(hipFree(base));
    HIP_CHECK(hipFree(out));
    return 0;
}
