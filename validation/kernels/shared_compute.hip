// Shared-memory workloads of seed 002: a block reduction and a 16 x 16 tiled
// matrix multiply; and a kernel whose large private array spills to local
// memory (build with -Xptxas -v to see the spill). With --sample-size: the full
// reduce and spill (65,536 blocks), the small matmul; with --large, reduce at
// 262,144 blocks (248 occupancy rounds on the H200, for sampled simulation).
#include "../common/harness.h"

__global__ void reduce(float* out, const float* in) {
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned stride = 128; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void matmul16(float* c, const float* a, const float* b, int n) {
    __shared__ float as[16][16], bs[16][16];
    int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
    float acc = 0;
    for (int k = 0; k < n; k += 16) {
        as[threadIdx.y][threadIdx.x] = a[row * n + k + threadIdx.x];
        bs[threadIdx.y][threadIdx.x] = b[(k + threadIdx.y) * n + col];
        __syncthreads();
        for (int kk = 0; kk < 16; ++kk) acc += as[threadIdx.y][kk] * bs[kk][threadIdx.x];
        __syncthreads();
    }
    c[row * n + col] = acc;
}

__global__ void spill(float* out, const float* in, int zero) {
    float priv[96];  // indexed at run time: lives in local (private) memory
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < 96; ++i) priv[i] = in[t] * float(i);
    float acc = 0;
    for (int i = 0; i < 96; ++i) acc += priv[(i * 7 + t + zero) % 96];
    out[t] = acc;
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv), small = validation::small(argc, argv);
    const int blocks = small ? 1024 : validation::flag(argc, argv, "--large") ? 1 << 18 : 1 << 16;
    float *in, *out;
    HIP_CHECK(hipMalloc(&in, sizeof(float) * blocks * 256));
    HIP_CHECK(hipMalloc(&out, sizeof(float) * blocks * 256));
    HIP_CHECK(hipMemset(in, 0, sizeof(float) * blocks * 256));
    validation::measure(single, "reduction", "shared_256", blocks * 256, 4.0 * blocks * 256, [&] {
        hipLaunchKernelGGL(reduce, dim3(blocks), dim3(256), 0, 0, out, in);
    });
    const int spill_blocks = small ? 264 : 1 << 16;
    validation::measure(single, "spill", "priv96", spill_blocks * 256, 0, [&] {
        hipLaunchKernelGGL(spill, dim3(spill_blocks), dim3(256), 0, 0, out, in, 0);
    });
    const int n = small || validation::sample_size(argc, argv) ? 128 : 2048;
    float *a, *b, *c;
    HIP_CHECK(hipMalloc(&a, sizeof(float) * n * n));
    HIP_CHECK(hipMalloc(&b, sizeof(float) * n * n));
    HIP_CHECK(hipMalloc(&c, sizeof(float) * n * n));
    HIP_CHECK(hipMemset(a, 0, sizeof(float) * n * n));
    HIP_CHECK(hipMemset(b, 0, sizeof(float) * n * n));
    validation::measure(single, "matmul", "tiled16", n, 0, [&] {
        hipLaunchKernelGGL(matmul16, dim3(n / 16, n / 16), dim3(16, 16), 0, 0, c, a, b, n);
    });
    for (float* p : {in, out, a, b, c}) HIP_CHECK(hipFree(p));
    return 0;
}
