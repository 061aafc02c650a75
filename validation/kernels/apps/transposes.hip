// Matrix transposes other than the suite's 32 x 8 tile loop: naive (coalesced reads, stores 4n bytes
// apart), a 32 x 32 block with one element a thread through a padded [32][33] tile, and the padded
// 32 x 8 tile with blocks taken in diagonal order (spreading the stores of concurrent blocks over the
// DRAM channels). n = 1024 with --small, 8192 full.
#include "apps.h"

__global__ void transpose_naive(float* out, const float* in, int n) {
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
    out[x * n + y] = in[y * n + x];
}

__global__ void transpose_block1024(float* out, const float* in, int n) {
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void transpose_diagonal(float* out, const float* in, int n) {
    __shared__ float tile[32][33];
    const int bx = (blockIdx.x + blockIdx.y) % gridDim.x, by = blockIdx.x;
    int x = bx * 32 + threadIdx.x, y = by * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = by * 32 + threadIdx.x;
    y = bx * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv);
    const int n = validation::small(argc, argv) ? 1024 : 8192;
    float *in = apps::random_floats(size_t(n) * n, 11), *out = apps::zeros<float>(size_t(n) * n);
    const double bytes = 8.0 * n * n;
    validation::measure(single, "transposes", "naive", n, bytes, [&] {
        hipLaunchKernelGGL(transpose_naive, dim3(n / 32, n / 8), dim3(32, 8), 0, 0, out, in, n);
    });
    validation::measure(single, "transposes", "block1024_padded", n, bytes, [&] {
        hipLaunchKernelGGL(transpose_block1024, dim3(n / 32, n / 32), dim3(32, 32), 0, 0, out, in, n);
    });
    validation::measure(single, "transposes", "diagonal_padded", n, bytes, [&] {
        hipLaunchKernelGGL(transpose_diagonal, dim3(n / 32, n / 32), dim3(32, 8), 0, 0, out, in, n);
    });
    HIP_CHECK(hipFree(in));
    HIP_CHECK(hipFree(out));
    return 0;
}
