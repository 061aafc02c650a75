// Register pressure: each thread keeps 48 running values (loaded from 48 strided inputs, mixed over 8
// rounds with fully unrolled, constant indices, so they are registers, not a private array). Built as is
// it fits in registers; with __launch_bounds__(256, 8) (at most 32 registers a thread on the H200) the
// compiler spills to local memory (stores and reloads through L1: `-Xptxas -v` in build.log says how
// many bytes). 528 blocks of 256 threads with --small, 2^14 full.
#include "apps.h"

#define MIX_BODY                                                                          \
    const int t = blockIdx.x * blockDim.x + threadIdx.x, n = gridDim.x * blockDim.x;     \
    float v[48];                                                                          \
    _Pragma("unroll") for (int i = 0; i < 48; ++i) v[i] = in[t + i * n];                 \
    for (int round = 0; round < rounds; ++round) {                                        \
        _Pragma("unroll") for (int i = 0; i < 48; ++i) v[i] = v[i] * v[(i + 1) % 48] + v[(i + 7) % 48]; \
    }                                                                                     \
    float acc = 0;                                                                        \
    _Pragma("unroll") for (int i = 0; i < 48; ++i) acc += v[i];                           \
    out[t] = acc;

__global__ void mix_registers(float* out, const float* in, int rounds) { MIX_BODY }

__global__ void __launch_bounds__(256, 8) mix_spilled(float* out, const float* in, int rounds) { MIX_BODY }

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv), small = validation::small(argc, argv);
    const int blocks = small ? 528 : 1 << 14, threads = blocks * 256;
    float *in = apps::random_floats(size_t(threads) * 48, 20), *out = apps::zeros<float>(threads);
    validation::measure(single, "regspill", "registers_48", threads, 196.0 * threads, [&] {
        hipLaunchKernelGGL(mix_registers, dim3(blocks), dim3(256), 0, 0, out, in, 8);
    });
    validation::measure(single, "regspill", "spilled_48", threads, 196.0 * threads, [&] {
        hipLaunchKernelGGL(mix_spilled, dim3(blocks), dim3(256), 0, 0, out, in, 8);
    });
    HIP_CHECK(hipFree(in));
    HIP_CHECK(hipFree(out));
    return 0;
}
