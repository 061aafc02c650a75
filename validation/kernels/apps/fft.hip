// FFT-like butterflies on complex floats: a 1024-point radix-2 FFT a block entirely in LDS (512
// threads, bit-reversed load, ten stages of butterflies with computed twiddles and a barrier each), and
// one radix-2 stage of a large FFT in global memory (partners n/2 apart, streaming). 512 blocks and
// 2^21 points with --small; 2^15 blocks and 2^26 points full.
#include "apps.h"

__device__ inline float2 cmul(float2 a, float2 b) { return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }

__global__ void fft1024_shared(float2* data) {
    __shared__ float2 s[1024];
    const int t = threadIdx.x;
    float2* block = data + size_t(blockIdx.x) * 1024;
    for (int i = t; i < 1024; i += 512) s[__brev(unsigned(i)) >> 22] = block[i];
    for (int half = 1; half < 1024; half <<= 1) {
        __syncthreads();
        const int k = t & (half - 1), i = 2 * t - k, j = i + half;
        float sn, cs;
        __sincosf(-3.14159265f * float(k) / float(half), &sn, &cs);
        const float2 a = s[i], b = cmul(s[j], make_float2(cs, sn));
        s[i] = make_float2(a.x + b.x, a.y + b.y);
        s[j] = make_float2(a.x - b.x, a.y - b.y);
    }
    __syncthreads();
    for (int i = t; i < 1024; i += 512) block[i] = s[i];
}

__global__ void fft_global_stage(float2* out, const float2* in, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x, half = n / 2;
    float sn, cs;
    __sincosf(-6.28318531f * float(i) / float(n), &sn, &cs);
    const float2 a = in[i], b = cmul(in[i + half], make_float2(cs, sn));
    out[i] = make_float2(a.x + b.x, a.y + b.y);
    out[i + half] = make_float2(a.x - b.x, a.y - b.y);
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv), small = validation::small(argc, argv);
    const int blocks = small ? 512 : 1 << 15, n = small ? 1 << 21 : 1 << 26;
    const size_t most = std::max(size_t(blocks) * 1024, size_t(n));
    float2 *a = reinterpret_cast<float2*>(apps::random_floats(2 * most, 16)), *b = apps::zeros<float2>(most);
    validation::measure(single, "fft", "shared_1024", blocks, 16.0 * blocks * 1024, [&] {
        hipLaunchKernelGGL(fft1024_shared, dim3(blocks), dim3(512), 0, 0, a);
    });
    validation::measure(single, "fft", "global_stage", n, 16.0 * n, [&] {
        hipLaunchKernelGGL(fft_global_stage, dim3(n / 2 / 256), dim3(256), 0, 0, b, a, n);
    });
    HIP_CHECK(hipFree(a));
    HIP_CHECK(hipFree(b));
    return 0;
}
