// 256-bin histograms of n bytes (an image-like distribution: the sum of two 6-bit uniforms, most values
// near the middle), read as 4-byte words: per-block bins in LDS with shared atomics, merged by one global
// atomic a bin a block; and every byte counted straight into the global bins. n = 512 KiB with --small,
// 256 MiB full.
#include "apps.h"

__global__ void histogram_shared(unsigned* bins, const unsigned* data, int words) {
    __shared__ unsigned local[256];
    local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * 256 + threadIdx.x; i < words; i += gridDim.x * 256) {
        unsigned w = data[i];
        for (int b = 0; b < 4; ++b) atomicAdd(&local[(w >> (8 * b)) & 0xff], 1u);
    }
    __syncthreads();
    if (local[threadIdx.x]) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

__global__ void histogram_global(unsigned* bins, const unsigned* data, int words) {
    for (int i = blockIdx.x * 256 + threadIdx.x; i < words; i += gridDim.x * 256) {
        unsigned w = data[i];
        for (int b = 0; b < 4; ++b) atomicAdd(&bins[(w >> (8 * b)) & 0xff], 1u);
    }
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv), small = validation::small(argc, argv);
    const int words = small ? 1 << 17 : 1 << 26;
    std::vector<unsigned> h(words);
    apps::Lcg r(5);
    for (auto& w : h) {
        w = 0;
        for (int b = 0; b < 4; ++b) w |= ((r.below(64) + r.below(64)) & 0xffu) << (8 * b);
    }
    unsigned *data = apps::upload(h), *bins = apps::zeros<unsigned>(256);
    const int blocks = small ? 512 : 132 * 16;
    validation::measure(single, "histogram", "shared_atomics", words * 4ll, 4.0 * words, [&] {
        hipLaunchKernelGGL(histogram_shared, dim3(blocks), dim3(256), 0, 0, bins, data, words);
    });
    validation::measure(single, "histogram", "global_atomics", words * 4ll, 4.0 * words, [&] {
        hipLaunchKernelGGL(histogram_global, dim3(blocks), dim3(256), 0, 0, bins, data, words);
    });
    HIP_CHECK(hipFree(data));
    HIP_CHECK(hipFree(bins));
    return 0;
}
