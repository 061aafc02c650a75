// Block-wide inclusive/exclusive prefix sums, as the first pass of a device scan: Hillis-Steele (512
// elements a block, double-buffered in LDS, log2 steps of n additions) and Blelloch's work-efficient
// up-sweep/down-sweep (1024 elements a block, two a thread, unpadded: its strided steps conflict in the
// banks). Each block writes its scanned elements and its total. n = 2^20 with --small, 2^25 full.
#include "apps.h"

__global__ void scan_hillis_steele(float* out, float* sums, const float* in) {
    __shared__ float buf[2][512];
    const int t = threadIdx.x, g = blockIdx.x * 512 + t;
    int cur = 0;
    buf[0][t] = in[g];
    __syncthreads();
    for (int d = 1; d < 512; d <<= 1) {
        buf[cur ^ 1][t] = t >= d ? buf[cur][t] + buf[cur][t - d] : buf[cur][t];
        cur ^= 1;
        __syncthreads();
    }
    out[g] = buf[cur][t];
    if (t == 511) sums[blockIdx.x] = buf[cur][t];
}

__global__ void scan_blelloch(float* out, float* sums, const float* in) {
    __shared__ float s[1024];
    const int t = threadIdx.x, g = blockIdx.x * 1024;
    s[t] = in[g + t];
    s[t + 512] = in[g + t + 512];
    int off = 1;
    for (int d = 512; d > 0; d >>= 1, off <<= 1) {
        __syncthreads();
        if (t < d) s[off * (2 * t + 2) - 1] += s[off * (2 * t + 1) - 1];
    }
    if (t == 0) {
        sums[blockIdx.x] = s[1023];
        s[1023] = 0;
    }
    for (int d = 1; d < 1024; d <<= 1) {
        off >>= 1;
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            float x = s[ai];
            s[ai] = s[bi];
            s[bi] += x;
        }
    }
    __syncthreads();
    out[g + t] = s[t];
    out[g + t + 512] = s[t + 512];
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv), small = validation::small(argc, argv);
    const int n = small ? 1 << 20 : 1 << 25;
    float* in = apps::random_floats(n, 4);
    float *out = apps::zeros<float>(n), *sums = apps::zeros<float>(n / 512);
    validation::measure(single, "scan", "hillis_steele", n, 8.0 * n, [&] {
        hipLaunchKernelGGL(scan_hillis_steele, dim3(n / 512), dim3(512), 0, 0, out, sums, in);
    });
    validation::measure(single, "scan", "blelloch", n, 8.0 * n, [&] {
        hipLaunchKernelGGL(scan_blelloch, dim3(n / 1024), dim3(512), 0, 0, out, sums, in);
    });
    for (float* p : {in, out, sums}) HIP_CHECK(hipFree(p));
    return 0;
}
