// Kernels for the local-memory probe (probe_tool.cpp, run.sh): the test set's
// 48-value mix (validation/kernels/apps/regspill.hip) with no register limit,
// at 40 and 32 registers (__launch_bounds__), and at 32 through -maxrregcount
// in its own file (local_probe_maxreg.cu); the suite's indexed private array
// (shared_compute.hip's spill) as is and under __launch_bounds__(256, 8).
#include <cstdio>

#include "local_probe.h"

__global__ void mix_plain(float* out, const float* in, int rounds) { MIX_BODY }
__global__ void __launch_bounds__(256, 6) mix_lb6(float* out, const float* in, int rounds) { MIX_BODY }
__global__ void __launch_bounds__(256, 8) mix_lb8(float* out, const float* in, int rounds) { MIX_BODY }
__global__ void priv96(float* out, const float* in, int zero) { PRIV_BODY }
__global__ void __launch_bounds__(256, 8) priv96_lb8(float* out, const float* in, int zero) { PRIV_BODY }

void launch_mix_maxreg(float* out, const float* in, int blocks, int rounds);

int main() {
    const int blocks = 132, n = blocks * 256;
    float *in = nullptr, *out = nullptr;
    if (cudaMalloc(&in, sizeof(float) * n * 48) != cudaSuccess || cudaMalloc(&out, sizeof(float) * n) != cudaSuccess) return 1;
    cudaMemset(in, 0, sizeof(float) * n * 48);
    mix_plain<<<blocks, 256>>>(out, in, 2);
    mix_lb6<<<blocks, 256>>>(out, in, 2);
    mix_lb8<<<blocks, 256>>>(out, in, 2);
    launch_mix_maxreg(out, in, blocks, 2);
    priv96<<<blocks, 256>>>(out, in, 0);
    priv96_lb8<<<blocks, 256>>>(out, in, 0);
    const cudaError_t e = cudaDeviceSynchronize();
    std::printf("local_probe: %s\n", cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
