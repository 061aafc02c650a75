// Block-local sorts, the first pass of a merge or radix sort: a bitonic network over 1024 keys in LDS
// (512 threads, one compare-exchange each a step, 55 steps with a barrier each), and an LSD radix sort
// of 256 8-bit keys a block, one bit a pass: each pass scans the bit's zeros in LDS (Hillis-Steele) and
// scatters the keys to their ranks in LDS. 132 and 264 blocks with --small; 2^15 and 2^16 full.
#include "apps.h"

__global__ void sort_bitonic(unsigned* data) {
    __shared__ unsigned s[1024];
    const int t = threadIdx.x;
    unsigned* block = data + blockIdx.x * 1024;
    s[t] = block[t];
    s[t + 512] = block[t + 512];
    for (int size = 2; size <= 1024; size <<= 1) {
        for (int stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            int i = 2 * t - (t & (stride - 1)), j = i + stride;
            bool up = (i & size) == 0;
            unsigned a = s[i], b = s[j];
            if ((a > b) == up) {
                s[i] = b;
                s[j] = a;
            }
        }
    }
    __syncthreads();
    block[t] = s[t];
    block[t + 512] = s[t + 512];
}

__global__ void sort_radix(unsigned* data) {
    __shared__ unsigned keys[256], scan[2][256];
    const int t = threadIdx.x;
    unsigned* block = data + blockIdx.x * 256;
    keys[t] = block[t] & 0xff;
    for (int bit = 0; bit < 8; ++bit) {
        __syncthreads();
        const unsigned k = keys[t], zero = ((k >> bit) & 1) == 0;
        int cur = 0;
        scan[0][t] = zero;
        __syncthreads();
        for (int d = 1; d < 256; d <<= 1) {
            scan[cur ^ 1][t] = t >= d ? scan[cur][t] + scan[cur][t - d] : scan[cur][t];
            cur ^= 1;
            __syncthreads();
        }
        const unsigned zeros_before = scan[cur][t] - zero, total_zeros = scan[cur][255];
        const unsigned rank = zero ? zeros_before : total_zeros + (t - zeros_before);
        __syncthreads();
        keys[rank] = k;
    }
    __syncthreads();
    block[t] = keys[t];
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv), small = validation::small(argc, argv);
    const int bitonic_blocks = small ? 132 : 1 << 15, radix_blocks = small ? 264 : 1 << 16;
    const size_t n = std::max(size_t(bitonic_blocks) * 1024, size_t(radix_blocks) * 256);
    std::vector<unsigned> h(n);
    apps::Lcg r(10);
    for (auto& v : h) v = r.next();
    unsigned* keys = apps::upload(h);
    validation::measure(single, "sort", "bitonic_1024", bitonic_blocks * 1024ll, 8.0 * bitonic_blocks * 1024, [&] {
        hipLaunchKernelGGL(sort_bitonic, dim3(bitonic_blocks), dim3(512), 0, 0, keys);
    });
    validation::measure(single, "sort", "radix_lds_256", radix_blocks * 256ll, 8.0 * radix_blocks * 256, [&] {
        hipLaunchKernelGGL(sort_radix, dim3(radix_blocks), dim3(256), 0, 0, keys);
    });
    HIP_CHECK(hipFree(keys));
    return 0;
}
