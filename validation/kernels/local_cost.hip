// What private (local) memory costs a kernel beyond its work: the suite's spill
// kernel spends ~17,000 of its ~43,000 cycles outside its warps
// (spill_phases.hip). Each thread stores one float to element `zero` (0) of a
// volatile private array of N floats and loads it back: one whole line each
// way a warp, an L1 hit for the load. Against the same kernel with the float
// kept in a register, for N = 96, 1,536 and 12,288 floats (384 B to 48 KiB a
// thread: the private memory the GPU sets aside grows with N) and grids of
// 132 to 4,224 blocks of 256 threads.
// Prints RESULT lines (harness.h; size field N x 100,000 + blocks, 0 for
// the register kernel).
#include "../common/device_timers.h"
#include "../common/harness.h"

template <int N>
__global__ void private_word(float* out, const float* in, int zero) {
    volatile float priv[N];  // volatile: every access goes to local memory
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    priv[zero] = in[t];
    out[t] = priv[zero];
}

__global__ void register_word(float* out, const float* in, int zero) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = in[t + zero];
}

template <int N>
void run(bool single, int blocks, float* out, const float* in) {
    char name[32];
    std::snprintf(name, sizeof name, "private%d_b%d", N, blocks);
    validation::measure(single, "local_cost", name, N * 100000ll + blocks, 0, [&] {
        hipLaunchKernelGGL(private_word<N>, dim3(blocks), dim3(256), 0, 0, out, in, 0);
    });
}

int main(int argc, char** argv) {
    const bool single = validation::once(argc, argv);
    const int max_blocks = 4224;
    float *in, *out;
    HIP_CHECK(hipMalloc(&in, sizeof(float) * max_blocks * 256));
    HIP_CHECK(hipMalloc(&out, sizeof(float) * max_blocks * 256));
    HIP_CHECK(hipMemset(in, 0, sizeof(float) * max_blocks * 256));
    for (int blocks : {132, 264, 1056, 4224}) {
        char name[32];
        std::snprintf(name, sizeof name, "register_b%d", blocks);
        validation::measure(single, "local_cost", name, blocks, 0, [&] {
            hipLaunchKernelGGL(register_word, dim3(blocks), dim3(256), 0, 0, out, in, 0);
        });
        run<96>(single, blocks, out, in);
        run<1536>(single, blocks, out, in);
        run<12288>(single, blocks, out, in);
    }
    HIP_CHECK(hipFree(in));
    HIP_CHECK(hipFree(out));
    return 0;
}
