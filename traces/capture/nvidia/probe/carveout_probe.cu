// dcutrace's `carveout` on the GPU machine: four kernels, each asking for a carve-out its own way
// (none; 0 % and 100 % through cudaFuncSetAttribute; 43 % taken back to the default), launched with
// <<<>>> and with cudaLaunchKernelExC. carveout_run.sh captures it and keeps the trace's kernel lines.
#include <cuda_runtime.h>

#include <cstdio>

#define CHECK(x)                                                                              \
    do {                                                                                      \
        cudaError_t e = (x);                                                                  \
        if (e != cudaSuccess) {                                                               \
            std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));                      \
            return 1;                                                                         \
        }                                                                                     \
    } while (0)

template <int K>
__global__ void tile(float* out) {
    __shared__ float s[1024];  // 4 KiB a block
    s[threadIdx.x] = float(threadIdx.x * K);
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}

int main() {
    float* out = nullptr;
    CHECK(cudaMalloc(&out, 8 * 256 * sizeof(float)));
    const auto attr = cudaFuncAttributePreferredSharedMemoryCarveout;
    CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(tile<1>), attr, 0));
    CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(tile<2>), attr, 100));
    CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(tile<3>), attr, 43));
    CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(tile<3>), attr, -1));  // the default again
    tile<0><<<8, 256>>>(out);  // expected: no carveout
    tile<1><<<8, 256>>>(out);  // carveout 0
    tile<2><<<8, 256>>>(out);  // carveout 100
    tile<3><<<8, 256>>>(out);  // no carveout
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(8);
    cfg.blockDim = dim3(256);
    void* args[] = {&out};
    CHECK(cudaLaunchKernelExC(&cfg, reinterpret_cast<const void*>(tile<2>), args));  // carveout 100
    CHECK(cudaDeviceSynchronize());
    std::printf("carveout_probe: 5 launches done\n");
    return 0;
}
