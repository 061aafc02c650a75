// A small CUDA program outside the validation suite, for `dcusim measure`:
// three kernels that stress different units. saxpy streams coalesced loads
// and stores through L1, L2 and DRAM; block_sum reduces in shared memory
// with barriers; gather reads with a 33-word stride (one line per lane,
// uncoalesced). Built with plain nvcc, run as is, no capture build.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void saxpy(float a, const float* x, float* y, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void block_sum(const float* in, float* out, int n) {
    __shared__ float part[256];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    part[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = part[0];
}

__global__ void gather(const float* in, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[(long long)i * 33 % n];
}

static int check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return 0;
    std::fprintf(stderr, "three_kernels: %s: %s\n", what, cudaGetErrorString(e));
    return 1;
}

int main() {
    const int n = 1 << 18, threads = 256, blocks = n / threads;
    float *x, *y, *sums;
    if (check(cudaMalloc(&x, n * sizeof(float)), "cudaMalloc") || check(cudaMalloc(&y, n * sizeof(float)), "cudaMalloc") ||
        check(cudaMalloc(&sums, blocks * sizeof(float)), "cudaMalloc"))
        return 1;
    cudaMemset(x, 0, n * sizeof(float));
    cudaMemset(y, 0, n * sizeof(float));
    saxpy<<<blocks, threads>>>(2.0f, x, y, n);
    block_sum<<<blocks, threads>>>(y, sums, n);
    gather<<<blocks, threads>>>(x, y, n);
    if (check(cudaDeviceSynchronize(), "kernels")) return 1;
    std::printf("three_kernels: 3 kernels of %d threads each\n", n);
    cudaFree(x);
    cudaFree(y);
    cudaFree(sums);
    return 0;
}
