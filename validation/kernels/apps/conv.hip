// 2-D convolutions of an n x n image with filters in __constant__ memory (every lane reads the same tap:
// one constant request a tap): 5 x 5 straight from global memory (the overlapping windows hit in L1), and
// 3 x 3 through an LDS tile of 16 x 16 outputs and its one-pixel border, loaded cooperatively by the
// 256 threads. n = 768 with --small, 8192 full.
#include "apps.h"

__constant__ float filter5[25];
__constant__ float filter3[9];

__global__ void conv5_global(float* out, const float* in, int n) {
    const int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
    float acc = 0;
    for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx) {
            int xx = min(max(x + dx, 0), n - 1), yy = min(max(y + dy, 0), n - 1);
            acc += filter5[(dy + 2) * 5 + dx + 2] * in[yy * n + xx];
        }
    out[y * n + x] = acc;
}

__global__ void conv3_shared(float* out, const float* in, int n) {
    __shared__ float tile[18][18];
    const int t = threadIdx.y * 16 + threadIdx.x, x0 = blockIdx.x * 16 - 1, y0 = blockIdx.y * 16 - 1;
    for (int i = t; i < 18 * 18; i += 256) {
        int xx = min(max(x0 + i % 18, 0), n - 1), yy = min(max(y0 + i / 18, 0), n - 1);
        tile[i / 18][i % 18] = in[yy * n + xx];
    }
    __syncthreads();
    float acc = 0;
    for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx) acc += filter3[dy * 3 + dx] * tile[threadIdx.y + dy][threadIdx.x + dx];
    out[(y0 + 1 + threadIdx.y) * n + x0 + 1 + threadIdx.x] = acc;
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv);
    const int n = validation::small(argc, argv) ? 768 : 8192;
    float f5[25], f3[9];
    for (int i = 0; i < 25; ++i) f5[i] = 1.0f / float(1 + (i % 5) + (i / 5));
    for (int i = 0; i < 9; ++i) f3[i] = i == 4 ? 0.5f : 0.0625f;
    HIP_CHECK(hipMemcpyToSymbol(filter5, f5, sizeof f5));
    HIP_CHECK(hipMemcpyToSymbol(filter3, f3, sizeof f3));
    validation::mark_const(filter5);
    validation::mark_const(filter3);
    float *in = apps::random_floats(size_t(n) * n, 15), *out = apps::zeros<float>(size_t(n) * n);
    validation::measure(single, "conv", "5x5_const_global", n, 8.0 * n * n, [&] {
        hipLaunchKernelGGL(conv5_global, dim3(n / 16, n / 16), dim3(16, 16), 0, 0, out, in, n);
    });
    validation::measure(single, "conv", "3x3_const_shared", n, 8.0 * n * n, [&] {
        hipLaunchKernelGGL(conv3_shared, dim3(n / 16, n / 16), dim3(16, 16), 0, 0, out, in, n);
    });
    HIP_CHECK(hipFree(in));
    HIP_CHECK(hipFree(out));
    return 0;
}
