// Constant memory: every lane reads one __constant__ address, or k = 2 ... 32
// distinct ones (CUDA's constant cache serves one address per request; GCN's
// scalar cache serves only uniform loads), and a 1-D stencil with __constant__
// coefficients against the same coefficients through const __restrict__ (seed 004).
// With --sample-size: the small const_k launches and stencils of 65,536 blocks.
#include "../common/harness.h"

__constant__ float coeff[64];

template <int K>
__global__ void const_k(float* out, int iters, int zero) {
    const int lane = threadIdx.x & 31;
    float acc = 0;
    for (int it = 0; it < iters; ++it) acc += coeff[(lane % K) + (int(acc) & zero)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void stencil_constant(float* out, const float* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x + 8;
    if (i >= n - 8) return;
    float s = 0;
    for (int r = -8; r <= 8; ++r) s += coeff[r + 8] * in[i + r];
    out[i] = s;
}

__global__ void stencil_restrict(float* out, const float* __restrict__ in, const float* __restrict__ c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x + 8;
    if (i >= n - 8) return;
    float s = 0;
    for (int r = -8; r <= 8; ++r) s += c[r + 8] * in[i + r];
    out[i] = s;
}

template <int K>
void run(bool single, bool small, float* out, const char* name) {
    const int iters = small ? 64 : 1024, blocks = small ? 132 : 1056;
    validation::measure(single, "constant", name, K, 0, [&] {
        hipLaunchKernelGGL(const_k<K>, dim3(blocks), dim3(256), 0, 0, out, iters, 0);
    });
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv), small = validation::small(argc, argv);
    const bool sample = validation::sample_size(argc, argv);
    float host[64];
    for (int i = 0; i < 64; ++i) host[i] = 1.0f / float(i + 1);
    HIP_CHECK(hipMemcpyToSymbol(coeff, host, sizeof host));
    validation::mark_const(coeff);
    const int n = small ? 1 << 18 : sample ? 1 << 24 : 1 << 26;
    float *out, *in, *c;
    HIP_CHECK(hipMalloc(&out, sizeof(float) * n));
    HIP_CHECK(hipMalloc(&in, sizeof(float) * n));
    HIP_CHECK(hipMalloc(&c, sizeof host));
    HIP_CHECK(hipMemset(in, 0, sizeof(float) * n));
    HIP_CHECK(hipMemcpy(c, host, sizeof host, hipMemcpyHostToDevice));
    run<1>(single, small || sample, out, "k1");
    run<2>(single, small || sample, out, "k2");
    run<4>(single, small || sample, out, "k4");
    run<8>(single, small || sample, out, "k8");
    run<16>(single, small || sample, out, "k16");
    run<32>(single, small || sample, out, "k32");
    validation::measure(single, "stencil", "constant", n, 2.0 * sizeof(float) * n, [&] {
        hipLaunchKernelGGL(stencil_constant, dim3(n / 256), dim3(256), 0, 0, out, in, n);
    });
    validation::measure(single, "stencil", "restrict", n, 2.0 * sizeof(float) * n, [&] {
        hipLaunchKernelGGL(stencil_restrict, dim3(n / 256), dim3(256), 0, 0, out, in, c, n);
    });
    HIP_CHECK(hipFree(out));
    HIP_CHECK(hipFree(in));
    HIP_CHECK(hipFree(c));
    return 0;
}
