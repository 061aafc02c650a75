// Stencils with halos: 1-D radius 4 (a 256-point tile and its 8-point halo in LDS), 2-D 5-point
// (16 x 16 tiles with a one-point halo in an 18 x 18 LDS tile: the edge threads load the halo) and 3-D
// 7-point straight from global memory (neighbours hit in L1 and L2). Sizes: 2^21 points, 1024^2 and
// 128^3 with --small; 2^26, 8192^2 and 512^3 full.
#include "apps.h"

__global__ void stencil1d(float* out, const float* in, int n) {
    __shared__ float s[256 + 8];
    const int t = threadIdx.x, g = blockIdx.x * 256 + t;
    s[t + 4] = in[g];
    if (t < 4) {
        s[t] = g >= 4 ? in[g - 4] : 0;
        s[t + 260] = g + 256 < n ? in[g + 256] : 0;
    }
    __syncthreads();
    float v = 0.2f * s[t + 4];
    for (int k = 1; k <= 4; ++k) v += (0.2f / k) * (s[t + 4 - k] + s[t + 4 + k]);
    out[g] = v;
}

__global__ void stencil2d(float* out, const float* in, int n) {
    __shared__ float s[18][18];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
    auto at = [&](int xx, int yy) { return xx >= 0 && xx < n && yy >= 0 && yy < n ? in[yy * n + xx] : 0.0f; };
    s[ty + 1][tx + 1] = in[y * n + x];
    if (tx == 0) s[ty + 1][0] = at(x - 1, y);
    if (tx == 15) s[ty + 1][17] = at(x + 1, y);
    if (ty == 0) s[0][tx + 1] = at(x, y - 1);
    if (ty == 15) s[17][tx + 1] = at(x, y + 1);
    __syncthreads();
    out[y * n + x] = 0.5f * s[ty + 1][tx + 1] +
                     0.125f * (s[ty][tx + 1] + s[ty + 2][tx + 1] + s[ty + 1][tx] + s[ty + 1][tx + 2]);
}

__global__ void stencil3d(float* out, const float* in, int n) {
    const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 4 + threadIdx.y, z = blockIdx.z * 2 + threadIdx.z;
    if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1) return;
    const long i = (long(z) * n + y) * n + x, plane = long(n) * n;
    out[i] = 0.4f * in[i] + 0.1f * (in[i - 1] + in[i + 1] + in[i - n] + in[i + n] + in[i - plane] + in[i + plane]);
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv), small = validation::small(argc, argv);
    const int n1 = small ? 1 << 21 : 1 << 26, n2 = small ? 1024 : 8192, n3 = small ? 128 : 512;
    const size_t most = std::max<size_t>({size_t(n1), size_t(n2) * n2, size_t(n3) * n3 * n3});
    float *in = apps::random_floats(most, 6), *out = apps::zeros<float>(most);
    validation::measure(single, "stencils", "1d_r4", n1, 8.0 * n1, [&] {
        hipLaunchKernelGGL(stencil1d, dim3(n1 / 256), dim3(256), 0, 0, out, in, n1);
    });
    validation::measure(single, "stencils", "2d_5pt", n2, 8.0 * n2 * n2, [&] {
        hipLaunchKernelGGL(stencil2d, dim3(n2 / 16, n2 / 16), dim3(16, 16), 0, 0, out, in, n2);
    });
    validation::measure(single, "stencils", "3d_7pt", n3, 8.0 * n3 * n3 * n3, [&] {
        hipLaunchKernelGGL(stencil3d, dim3(n3 / 32, n3 / 4, n3 / 2), dim3(32, 4, 2), 0, 0, out, in, n3);
    });
    HIP_CHECK(hipFree(in));
    HIP_CHECK(hipFree(out));
    return 0;
}
