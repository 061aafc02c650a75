// What an L2 hit costs when the line sits in the other partition only. One
// thread on one SM (the warm SM) reads 2,048 lines (a random cyclic chase,
// loads that skip the L1), which leaves them in the L2; then one thread on
// another SM (the timed SM) chases the same lines, timing every load with
// clock64. If the timed SM is on the warm SM's side of the L2, every line is
// a near hit. If not, the lines homed on its own side are near hits, and the
// others are in the far partition only: they cross the link, both ways.
// Each target SM gets a fresh buffer (copied in from the host, then pushed out
// of the L2 by a 256 MiB memset). A block runs on the SM it asks for by
// launching 4 blocks per SM and letting the first to find itself on that SM
// do the work.
// Prints per target: FAR <warm sm> <timed sm> <loads under 400 cycles> <400-600> <600 and over>
// <median under 400> <median 400-600>
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "../common/device_timers.h"
#include "../common/harness.h"

constexpr int kLines = 2048;
constexpr int kWords = 32;  // 4-byte words in a 128-byte line

__device__ unsigned load_l2(const unsigned* p) {
#if defined(__CUDA_ARCH__)
    unsigned v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
#else
    return *(const volatile unsigned*)p;
#endif
}

// The first thread to find itself on SM `sm` chases the chain once; with `lat`, timing each load.
__global__ void chase_on(const unsigned* buf, unsigned sm, unsigned* claimed, unsigned zero, unsigned long long* lat,
                         unsigned* ran_on) {
    if (threadIdx.x != 0 || cu_id() != sm || atomicCAS(claimed, 0u, 1u) != 0u) return;
    __shared__ unsigned sink;
    unsigned line = 0;
    for (int i = 0; i < kLines; ++i) {
        const long long t0 = cu_cycles();
        line = load_l2(buf + line * kWords + (line & zero));
        sink = line & zero;
        if (lat) lat[i] = (unsigned long long)(cu_cycles() - t0);
    }
    *ran_on = cu_id() + (sink & zero);
}

int main(int argc, char** argv) {
    validation::once(argc, argv);
    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
    const unsigned sms = unsigned(prop.multiProcessorCount);
    std::vector<unsigned> order(kLines), next(kLines);
    for (int i = 0; i < kLines; ++i) order[i] = unsigned(i);
    std::mt19937 rng(54321);
    std::shuffle(order.begin() + 1, order.end(), rng);
    for (int k = 0; k < kLines; ++k) next[order[k]] = order[(k + 1) % kLines];
    std::vector<unsigned> image(size_t(kLines) * kWords, 0);
    for (int i = 0; i < kLines; ++i) image[size_t(i) * kWords] = next[i];
    const size_t buf_bytes = image.size() * sizeof(unsigned), flush_bytes = size_t(256) << 20;
    // The warm SM is SM 0; the timed SMs are spread over the SM numbers.
    std::vector<unsigned> targets;
    for (unsigned k = 0; k < 16; ++k) targets.push_back(k * sms / 16 + (k % 2));
    unsigned *bufs, *flush, *claimed, *ran;
    unsigned long long* d_lat;
    HIP_CHECK(hipMalloc(&bufs, buf_bytes * targets.size()));
    HIP_CHECK(hipMalloc(&flush, flush_bytes));
    HIP_CHECK(hipMalloc(&claimed, sizeof(unsigned)));
    HIP_CHECK(hipMalloc(&ran, 2 * sizeof(unsigned)));
    HIP_CHECK(hipMalloc(&d_lat, kLines * sizeof(unsigned long long)));
    std::vector<unsigned long long> lat(kLines);
    for (size_t t = 0; t < targets.size(); ++t) {
        unsigned* buf = bufs + t * (buf_bytes / sizeof(unsigned));
        HIP_CHECK(hipMemcpy(buf, image.data(), buf_bytes, hipMemcpyHostToDevice));
        HIP_CHECK(hipMemset(flush, int(t + 1), flush_bytes));
        HIP_CHECK(hipMemset(ran, 0xff, 2 * sizeof(unsigned)));
        HIP_CHECK(hipMemset(claimed, 0, sizeof(unsigned)));
        hipLaunchKernelGGL(chase_on, dim3(4 * sms), dim3(32), 0, 0, buf, 0u, claimed, 0u, nullptr, ran);
        HIP_CHECK(hipMemset(claimed, 0, sizeof(unsigned)));
        hipLaunchKernelGGL(chase_on, dim3(4 * sms), dim3(32), 0, 0, buf, targets[t], claimed, 0u, d_lat, ran + 1);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
        unsigned on[2];
        HIP_CHECK(hipMemcpy(on, ran, sizeof on, hipMemcpyDeviceToHost));
        HIP_CHECK(hipMemcpy(lat.data(), d_lat, kLines * sizeof(unsigned long long), hipMemcpyDeviceToHost));
        std::vector<unsigned long long> near, mid;
        unsigned slow = 0;
        for (unsigned long long c : lat) {
            if (c < 400) near.push_back(c);
            else if (c < 600) mid.push_back(c);
            else ++slow;
        }
        std::sort(near.begin(), near.end());
        std::sort(mid.begin(), mid.end());
        std::printf("FAR %d %d %zu %zu %u %llu %llu\n", int(on[0]), int(on[1]), near.size(), mid.size(), slow,
                    near.empty() ? 0ull : near[near.size() / 2], mid.empty() ? 0ull : mid[mid.size() / 2]);
    }
    HIP_CHECK(hipFree(bufs));
    HIP_CHECK(hipFree(flush));
    HIP_CHECK(hipFree(claimed));
    HIP_CHECK(hipFree(ran));
    HIP_CHECK(hipFree(d_lat));
    return 0;
}
