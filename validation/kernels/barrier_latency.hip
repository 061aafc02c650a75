// What a block-wide barrier (__syncthreads, BAR.SYNC) costs: each warp of a
// block runs a loop of kSteps iterations, timed with clock64, whose body is a
// barrier (`bar`) or nothing but an empty asm statement (`loop`, the loop's own
// cost). Blocks of 32 to 1,024 threads; one block on one SM (`one`), or every
// SM holding 2,048 threads of such blocks (`full`, barriers of several blocks
// on one SM at once). Prints per case the median over the warps of cycles per
// iteration:
//   BARRIER <bar|loop> <one|full> <threads a block> <blocks> <cycles per iteration>
#include "../common/harness.h"

constexpr int kSteps = 1024;

template <bool BAR>
__global__ void steps(long long* out) {
    const long long t0 = clock64();
#pragma unroll 1
    for (int i = 0; i < kSteps; ++i) {
        if (BAR) __syncthreads();
        else asm volatile("");
    }
    const long long t1 = clock64();
    if (threadIdx.x % 32 == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = t1 - t0;
}

int main() {
    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    long long* out;
    const int max_warps = sms * 64;
    HIP_CHECK(hipMalloc(&out, max_warps * sizeof(long long)));
    std::vector<long long> host(max_warps);
    for (int bar = 1; bar >= 0; --bar)
        for (int full = 0; full <= 1; ++full)
            for (int threads : {32, 64, 128, 256, 512, 1024}) {
                const int blocks = full ? sms * (2048 / threads) : 1;
                for (int rep = 0; rep < 2; ++rep) {  // the first launch warms the code
                    if (bar) hipLaunchKernelGGL(steps<true>, dim3(blocks), dim3(threads), 0, 0, out);
                    else hipLaunchKernelGGL(steps<false>, dim3(blocks), dim3(threads), 0, 0, out);
                    HIP_CHECK(hipDeviceSynchronize());
                }
                const int warps = blocks * threads / 32;
                HIP_CHECK(hipMemcpy(host.data(), out, warps * sizeof(long long), hipMemcpyDeviceToHost));
                std::vector<long long> w(host.begin(), host.begin() + warps);
                std::sort(w.begin(), w.end());
                std::printf("BARRIER %s %s %d %d %.2f\n", bar ? "bar" : "loop", full ? "full" : "one", threads, blocks,
                            double(w[w.size() / 2]) / kSteps);
            }
    HIP_CHECK(hipFree(out));
    return 0;
}
