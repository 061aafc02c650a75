// Tiled transpose through LDS: tile[32][32] (column reads on one bank) against
// the padded tile[32][33] (seeds 000, 002). 32 x 8 threads per block, each
// moving 4 elements; an 8192 x 8192 float matrix (1024 x 1024 with --small).
#include "../common/harness.h"

template <int PAD>
__global__ void transpose(float* out, const float* in, int n) {
    __shared__ float tile[32][32 + PAD];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv);
    const int n = validation::small(argc, argv) ? 1024 : 8192;
    float *in, *out;
    HIP_CHECK(hipMalloc(&in, sizeof(float) * n * n));
    HIP_CHECK(hipMalloc(&out, sizeof(float) * n * n));
    HIP_CHECK(hipMemset(in, 0, sizeof(float) * n * n));
    const double bytes = 2.0 * sizeof(float) * n * n;
    validation::measure(single, "transpose", "tile32", n, bytes, [&] {
        hipLaunchKernelGGL(transpose<0>, dim3(n / 32, n / 32), dim3(32, 8), 0, 0, out, in, n);
    });
    validation::measure(single, "transpose", "tile33_padded", n, bytes, [&] {
        hipLaunchKernelGGL(transpose<1>, dim3(n / 32, n / 32), dim3(32, 8), 0, 0, out, in, n);
    });
    HIP_CHECK(hipFree(in));
    HIP_CHECK(hipFree(out));
    return 0;
}
