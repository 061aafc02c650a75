// Dense matrix multiply C = A B (n x n floats): a naive kernel, one output per thread read straight from
// global memory (A's row broadcast, B's column coalesced; L1 reuse), and a register-blocked one: 64 x 64
// tiles of C per block of 16 x 16 threads, each thread 4 x 4 outputs, A and B staged through LDS 16
// columns at a time (A transposed into a padded tile). n = 256 and 768 with --small, 1024 and 2048 full.
#include "apps.h"

__global__ void gemm_naive(float* c, const float* a, const float* b, int n) {
    int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
    float acc = 0;
    for (int k = 0; k < n; ++k) acc += a[row * n + k] * b[k * n + col];
    c[row * n + col] = acc;
}

__global__ void gemm_tiled(float* c, const float* a, const float* b, int n) {
    __shared__ float as[16][65], bs[16][64];
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < n; k0 += 16) {
        for (int l = 0; l < 4; ++l) {
            int i = t + 256 * l;
            as[i % 16][i / 16] = a[(row0 + i / 16) * n + k0 + i % 16];
            bs[i / 64][i % 64] = b[(k0 + i / 64) * n + col0 + i % 64];
        }
        __syncthreads();
        for (int kk = 0; kk < 16; ++kk) {
            float av[4], bv[4];
            for (int i = 0; i < 4; ++i) av[i] = as[kk][ty + 16 * i];
            for (int j = 0; j < 4; ++j) bv[j] = bs[kk][tx + 16 * j];
            for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 4; ++j) acc[i][j] += av[i] * bv[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) c[(row0 + ty + 16 * i) * n + col0 + tx + 16 * j] = acc[i][j];
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv), small = validation::small(argc, argv);
    const int nn = small ? 256 : 1024, nt = small ? 768 : 2048;
    float *a = apps::random_floats(size_t(nt) * nt, 1), *b = apps::random_floats(size_t(nt) * nt, 2);
    float* c = apps::zeros<float>(size_t(nt) * nt);
    validation::measure(single, "gemm", "naive", nn, 3.0 * 4 * nn * nn, [&] {
        hipLaunchKernelGGL(gemm_naive, dim3(nn / 16, nn / 16), dim3(16, 16), 0, 0, c, a, b, nn);
    });
    validation::measure(single, "gemm", "tiled64", nt, 3.0 * 4 * nt * nt, [&] {
        hipLaunchKernelGGL(gemm_tiled, dim3(nt / 64, nt / 64), dim3(16, 16), 0, 0, c, a, b, nt);
    });
    for (float* p : {a, b, c}) HIP_CHECK(hipFree(p));
    return 0;
}
