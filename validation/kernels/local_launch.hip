// Meant to price a kernel's private memory beyond its work (the suite's spill
// kernel spends ~17,000 of its ~43,000 cycles outside its warps,
// spill_phases.hip). Each thread stores one float to a private array of N
// floats and loads one back, against the same grid with no private array, for
// N = 96, 384 and 1,536 (384 B to 6 KiB a thread) and 132 to 4,224 blocks of
// 256 threads. Lane l of warp w stores element 32w + l (mod N), and private
// memory interleaves the lanes' words: each warp's store writes 4 bytes into
// 32 lines (sectors written in part) and its load reads 32 lines, so this
// measures scattered partial-sector private stores more than a launch cost
// (results/h200-locallaunch). Prints RESULT lines (harness.h; the size field
// is N x 100,000 + blocks, 0 x 100,000 + blocks for the kernel without).
#include "../common/harness.h"

template <int N>
__global__ void with_local(float* out, const float* in, int zero) {
    float priv[N];  // indexed at run time: lives in local memory
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    priv[(t + zero) % N] = in[t];
    out[t] = priv[(t * 3 + zero) % N];
}

__global__ void without_local(float* out, const float* in, int zero) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = in[(t + zero) % (t + 1)] + float(zero);
}

template <int N>
void run(bool single, int blocks, float* out, const float* in) {
    char name[32];
    std::snprintf(name, sizeof name, "local%d_b%d", N, blocks);
    validation::measure(single, "local_launch", name, N * 100000ll + blocks, 0, [&] {
        hipLaunchKernelGGL(with_local<N>, dim3(blocks), dim3(256), 0, 0, out, in, 0);
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
        std::snprintf(name, sizeof name, "none_b%d", blocks);
        validation::measure(single, "local_launch", name, blocks, 0, [&] {
            hipLaunchKernelGGL(without_local, dim3(blocks), dim3(256), 0, 0, out, in, 0);
        });
        run<96>(single, blocks, out, in);
        run<384>(single, blocks, out, in);
        run<1536>(single, blocks, out, in);
    }
    HIP_CHECK(hipFree(in));
    HIP_CHECK(hipFree(out));
    return 0;
}
