// What dcucc must see in one kernel: __constant__ data, LDS with a barrier, a
// private array indexed at run time (it stays in scratch), and atomics.
#include <hip/hip_runtime.h>

__constant__ float coef[16];

__global__ void features(float* out, const float* __restrict__ in, int n, unsigned* hist) {
    __shared__ float tile[256];
    float priv[64];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = in[i];
    __syncthreads();
    for (int j = 0; j < 64; ++j) priv[j] = tile[(threadIdx.x + j) % 256] * coef[j % 16];
    float s = 0;
    for (int j = 0; j < n; ++j) s += priv[(j * 7 + i) % 64];
    out[i] = s;
    atomicAdd(&hist[i % 16], 1u);
}

int main() {
    float *out, *in;
    unsigned* hist;
    hipMalloc(&out, 256 * sizeof(float));
    hipMalloc(&in, 256 * sizeof(float));
    hipMalloc(&hist, 16 * sizeof(unsigned));
    hipLaunchKernelGGL(features, dim3(1), dim3(256), 0, 0, out, in, 8, hist);
    return hipDeviceSynchronize() == hipSuccess ? 0 : 1;
}
