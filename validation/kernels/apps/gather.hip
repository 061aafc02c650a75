// Indexed loads and stores through an index array: gather out[i] = in[idx[i]] and scatter
// out[idx[i]] = in[i], idx a permutation shuffled within windows of 1024 elements (a warp's 32 lanes land
// on about 25 of the window's 128 sectors: locality between a stream and a random access, as a
// renumbered mesh or a sort's permutation has). n = 2^18 with --small, 2^26 full.
#include "apps.h"

__global__ void gather(float* out, const float* in, const int* idx) {
    const int i = blockIdx.x * 256 + threadIdx.x;
    out[i] = in[idx[i]];
}

__global__ void scatter(float* out, const float* in, const int* idx) {
    const int i = blockIdx.x * 256 + threadIdx.x;
    out[idx[i]] = in[i];
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv), small = validation::small(argc, argv);
    const int n = small ? 1 << 18 : 1 << 26;
    std::vector<int> idx(n);
    apps::Lcg r(17);
    for (int w = 0; w < n; w += 1024) {
        for (int k = 0; k < 1024; ++k) idx[w + k] = w + k;
        for (int k = 1023; k > 0; --k) std::swap(idx[w + k], idx[w + int(r.below(k + 1))]);
    }
    int* d_idx = apps::upload(idx);
    float *in = apps::random_floats(n, 18), *out = apps::zeros<float>(n);
    validation::measure(single, "gather", "gather_window1024", n, 12.0 * n, [&] {
        hipLaunchKernelGGL(gather, dim3(n / 256), dim3(256), 0, 0, out, in, d_idx);
    });
    validation::measure(single, "gather", "scatter_window1024", n, 12.0 * n, [&] {
        hipLaunchKernelGGL(scatter, dim3(n / 256), dim3(256), 0, 0, out, in, d_idx);
    });
    HIP_CHECK(hipFree(d_idx));
    HIP_CHECK(hipFree(in));
    HIP_CHECK(hipFree(out));
    return 0;
}
