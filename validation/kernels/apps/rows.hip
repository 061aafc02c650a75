// Row-wise normalisations of a transformer: softmax over rows of 2048 floats (a block of 256 threads a
// row, 8 values a thread kept in registers, the row's max and sum through LDS trees), and layernorm over
// rows of 1024 floats (a warp a row, mean and variance by shuffles, then scale and shift by gamma and
// beta). 1024 and 8192 rows with --small, 32768 and 262144 full.
#include "apps.h"

__device__ float block_reduce(float v, float* s, bool is_max) {
    const int t = threadIdx.x;
    s[t] = v;
    __syncthreads();
    for (int stride = 128; stride > 0; stride >>= 1) {
        if (t < stride) s[t] = is_max ? fmaxf(s[t], s[t + stride]) : s[t] + s[t + stride];
        __syncthreads();
    }
    float r = s[0];
    __syncthreads();
    return r;
}

__global__ void softmax_rows(float* out, const float* in) {
    __shared__ float s[256];
    const float* row = in + size_t(blockIdx.x) * 2048;
    float v[8], m = -1e30f, sum = 0;
    for (int i = 0; i < 8; ++i) {
        v[i] = row[threadIdx.x + 256 * i];
        m = fmaxf(m, v[i]);
    }
    m = block_reduce(m, s, true);
    for (int i = 0; i < 8; ++i) {
        v[i] = __expf(v[i] - m);
        sum += v[i];
    }
    const float inv = 1.0f / block_reduce(sum, s, false);
    for (int i = 0; i < 8; ++i) out[size_t(blockIdx.x) * 2048 + threadIdx.x + 256 * i] = v[i] * inv;
}

__global__ void layernorm_rows(float* out, const float* in, const float* gamma, const float* beta, int rows) {
    const int r = (blockIdx.x * blockDim.x + threadIdx.x) / APPS_WARP, lane = threadIdx.x % APPS_WARP;
    if (r >= rows) return;
    constexpr int per = 1024 / APPS_WARP;
    const float* row = in + size_t(r) * 1024;
    float v[per], sum = 0, sq = 0;
    for (int i = 0; i < per; ++i) {
        v[i] = row[lane + APPS_WARP * i];
        sum += v[i];
    }
    const float mean = warp_sum(sum) / 1024;
    const float m = shfl_first(mean);
    for (int i = 0; i < per; ++i) sq += (v[i] - m) * (v[i] - m);
    const float rstd = rsqrtf(shfl_first(warp_sum(sq)) / 1024 + 1e-5f);
    for (int i = 0; i < per; ++i) {
        int c = lane + APPS_WARP * i;
        out[size_t(r) * 1024 + c] = (v[i] - m) * rstd * gamma[c] + beta[c];
    }
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv), small = validation::small(argc, argv);
    const int soft_rows = small ? 1024 : 32768, ln_rows = small ? 8192 : 262144;
    const size_t n = std::max(size_t(soft_rows) * 2048, size_t(ln_rows) * 1024);
    float *in = apps::random_floats(n, 12), *out = apps::zeros<float>(n);
    float *gamma = apps::random_floats(1024, 13), *beta = apps::random_floats(1024, 14);
    validation::measure(single, "rows", "softmax_2048", soft_rows, 8.0 * soft_rows * 2048, [&] {
        hipLaunchKernelGGL(softmax_rows, dim3(soft_rows), dim3(256), 0, 0, out, in);
    });
    validation::measure(single, "rows", "layernorm_1024", ln_rows, 8.0 * ln_rows * 1024, [&] {
        hipLaunchKernelGGL(layernorm_rows, dim3(ln_rows / (256 / APPS_WARP)), dim3(256), 0, 0, out, in, gamma, beta, ln_rows);
    });
    for (float* p : {in, out, gamma, beta}) HIP_CHECK(hipFree(p));
    return 0;
}
