// How many load instructions an SM's L1 serves per cycle when they hit: one
// block of 1,024 threads per SM, each warp issuing 16 independent loads per
// iteration (unrolled, each followed by one FADD), all in a 16 KiB buffer
// that stays in the L1. A load's 32 lanes read distinct 4-byte words of L
// lines (lane l: line l mod L), or all the same word (L = 0: a new line each
// load; L = -1: word k of one line for load k; L = -2: one word for all loads), with
// ld.global (`ld`) or ld.global.nc (`ldg`, __ldg: what const __restrict__
// compiles to). Each warp times its loop with clock64; prints the median warp's
// cycles per load instruction per SM:
//   L1RATE <ld|ldg> <lines> <cycles per load per SM>
// l1_tags.hip measured the lines a cycle with many lines per load; this
// measures what one instruction costs with few.
#include "../common/harness.h"

constexpr int kUnroll = 16, kIters = 256, kThreads = 1024;

template <int LINES, bool NC>
__global__ void rate(const float* buf, float* out, long long* cycles, int shift) {  // no __restrict__: ld stays ld
    const int lane = threadIdx.x & 31;
    const float* base = buf + blockIdx.x * 4096;  // 16 KiB a block: 128 lines
    // Word of this lane in step k: line (k * LINES + lane mod LINES), word lane / LINES (all lanes word 0 when uniform).
    const int line = LINES > 0 ? lane % LINES : 0, word = LINES > 0 ? lane / LINES : 0;
    float acc = 0;
    long long t0 = 0;
#pragma unroll 1
    for (int it = -1; it < kIters; ++it) {  // iteration -1 brings the lines into the L1
        if (it == 0) t0 = clock64();
        const int rot = it * shift;  // 0 at run time: the same lines every iteration, but not hoisted out of the loop
#pragma unroll
        for (int k = 0; k < kUnroll; ++k) {
            const float* p = LINES >= 0 ? base + ((k * (LINES ? LINES : 1) + line + rot) & 127) * 32 + word
                                        : base + ((rot & 127) * 32 + (LINES == -1 ? k : 0));
            acc += NC ? __ldg(p) : *p;
        }
    }
    const long long t1 = clock64();
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
    if (lane == 0) cycles[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = t1 - t0;
}

template <int LINES, bool NC>
void run(int sms, const float* buf, float* out, long long* cycles, std::vector<long long>& host) {
    for (int rep = 0; rep < 2; ++rep) {
        hipLaunchKernelGGL((rate<LINES, NC>), dim3(sms), dim3(kThreads), 0, 0, buf, out, cycles, 0);
        HIP_CHECK(hipDeviceSynchronize());
    }
    const int warps = sms * kThreads / 32;
    HIP_CHECK(hipMemcpy(host.data(), cycles, warps * sizeof(long long), hipMemcpyDeviceToHost));
    std::vector<long long> w(host.begin(), host.begin() + warps);
    std::sort(w.begin(), w.end());
    const double loads_per_sm = double(kThreads / 32) * kIters * kUnroll;
    std::printf("L1RATE %s %d %.3f\n", NC ? "ldg" : "ld", LINES, double(w[w.size() / 2]) / loads_per_sm);
}

int main() {
    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    float *buf, *out;
    long long* cycles;
    HIP_CHECK(hipMalloc(&buf, sms * 4096 * sizeof(float)));
    HIP_CHECK(hipMalloc(&out, sms * kThreads * sizeof(float)));
    HIP_CHECK(hipMalloc(&cycles, sms * kThreads / 32 * sizeof(long long)));
    HIP_CHECK(hipMemset(buf, 0, sms * 4096 * sizeof(float)));
    std::vector<long long> host(sms * kThreads / 32);
    run<0, false>(sms, buf, out, cycles, host);
    run<1, false>(sms, buf, out, cycles, host);
    run<2, false>(sms, buf, out, cycles, host);
    run<4, false>(sms, buf, out, cycles, host);
    run<8, false>(sms, buf, out, cycles, host);
    run<-1, false>(sms, buf, out, cycles, host);
    run<-2, false>(sms, buf, out, cycles, host);
    run<0, true>(sms, buf, out, cycles, host);
    run<1, true>(sms, buf, out, cycles, host);
    run<2, true>(sms, buf, out, cycles, host);
    run<4, true>(sms, buf, out, cycles, host);
    run<8, true>(sms, buf, out, cycles, host);
    HIP_CHECK(hipFree(buf));
    HIP_CHECK(hipFree(out));
    HIP_CHECK(hipFree(cycles));
    return 0;
}
