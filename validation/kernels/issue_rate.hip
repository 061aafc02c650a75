// How fast one warp issues instructions that do not depend on each other, and how far a warp runs ahead
// of its shared-memory loads, timed inside the kernel with clock64 (one block on one SM; the SASS is kept
// by run.py device issue_rate: its control words hold the compiler's stall counts and scoreboards).
// dcusim holds a wave cu.wave_issue_cycles (4, the dependent FADD's latency) after every instruction,
// dependent or not, and a `wait` waits for all of the wave's loads; the H200's compiler sets a stall of 1
// on most of the FFMAs of an LDS-tiled GEMM (validation/results/h200-apps/sass_gemm.txt, gemm_tiled) and
// waits on the scoreboard of the one load the next FFMA reads.
//   ffma_N (N = 1, 2, 4, 8, 16): one warp, N independent FFMA chains, one FFMA of each a step;
//                                 cycles an FFMA: 4 if every FFMA waits 4 (dcusim), 4/N down to 1 if not
//   ffma16_wW (W = 4, 8, 16, 32): W warps of one block, 16 chains each: the SM's four schedulers'
//                                 rate (cycles an FFMA per SM; 0.25 at one warp instruction a cycle each)
//   lds_gemm_wW (W = 1, 2, 4, 8, 16, 32): W warps of one block, the inner loop of the test set's
//                                 gemm/tiled64 (each kk: 4 LDS of a B row, 4 broadcast LDS of an A
//                                 column, 16 FFMAs): cycles a kk step per warp (slowest warp)
//   partial_wait_L (L = 0, 64, 128, 256): one warp; a step loads one line that hits the L1 (its address
//                                 from the last step's value) and 4 lines never read before (DRAM), runs
//                                 L dependent FFMAs on the first, then adds the 4: cycles a step. A wait for
//                                 all of the step's loads before the FFMAs (dcusim) costs DRAM + 4 L; a wait
//                                 for the one load they read costs max(DRAM, L1 + 4 L)
#include "../common/harness.h"

constexpr int kSteps = 2048, kWarm = 64, kKk = 16, kRounds = 64;

template <int N>
__global__ void ffma_chains(long long* cycles, float* sink, float a, float b) {
    float acc[N];
#pragma unroll
    for (int j = 0; j < N; ++j) acc[j] = float(threadIdx.x + j);
    auto steps = [&](int n) {
#pragma unroll 4
        for (int i = 0; i < n; ++i)
#pragma unroll
            for (int j = 0; j < N; ++j) acc[j] = fmaf(acc[j], a, b);
    };
    steps(kWarm);
    __syncthreads();
    const long long t0 = clock64();
    steps(kSteps);
    const long long t1 = clock64();
    if (threadIdx.x % 32 == 0) cycles[threadIdx.x / 32] = t1 - t0;
    float s = 0;
#pragma unroll
    for (int j = 0; j < N; ++j) s += acc[j];
    if (s == 12345.f) sink[threadIdx.x] = s;  // never: keeps the chains
}

// gemm/tiled64's inner loop (validation/kernels/apps/gemm.hip) on tiles already in shared memory.
__global__ void lds_gemm(long long* cycles, float* sink) {
    __shared__ float as[16][65], bs[16][64];
    const int t = threadIdx.x, tx = t % 16, ty = (t / 16) % 16;
    for (int i = t; i < 16 * 65; i += blockDim.x) (&as[0][0])[i] = float(i % 7);
    for (int i = t; i < 16 * 64; i += blockDim.x) (&bs[0][0])[i] = float(i % 5);
    __syncthreads();
    float acc[4][4] = {};
    long long t0 = 0;
#pragma unroll 1
    for (int r = 0; r < kRounds + 1; ++r) {
        if (r == 1) t0 = clock64();  // round 0 warms up
        for (int kk = 0; kk < kKk; ++kk) {
            float av[4], bv[4];
            for (int i = 0; i < 4; ++i) av[i] = as[kk][ty + 16 * i];
            for (int j = 0; j < 4; ++j) bv[j] = bs[kk][tx + 16 * j];
            for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 4; ++j) acc[i][j] += av[i] * bv[j];
        }
    }
    const long long t1 = clock64();
    if (t % 32 == 0) cycles[t / 32] = t1 - t0;
    float s = 0;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) s += acc[i][j];
    if (s == 12345.f) sink[t] = s;  // never: keeps the loop
}

template <int L>
__global__ void partial_wait(long long* cycles, float* sink, const float* near, const float* far, float x) {
    const unsigned lane = threadIdx.x;
    float v = near[lane], acc = 0;
    auto step = [&](int i) {
        const float a = near[(__float_as_uint(v) & 0xf80u) + lane];  // 32 lines of 16 KiB, chosen by the chain
        const float* f = far + (size_t(i) * 4) * 32 + lane;           // 4 fresh lines a step
        const float b0 = f[0], b1 = f[32], b2 = f[64], b3 = f[96];
        asm volatile("" ::: "memory");  // the loads stay before the chain (check the SASS: ptxas may move them)
        v = a;
#pragma unroll
        for (int k = 0; k < L; ++k) v = v * x + a;
        acc += (b0 + b1) + (b2 + b3);
        v = __uint_as_float(__float_as_uint(v) & 0x3fffffffu);  // stays a small positive float
    };
    // not unrolled: an unrolled loop could issue the next steps' DRAM loads before this step's wait
#pragma unroll 1
    for (int i = 0; i < kWarm; ++i) step(i);
    const long long t0 = clock64();
#pragma unroll 1
    for (int i = kWarm; i < kWarm + kSteps / 8; ++i) step(i);
    const long long t1 = clock64();
    if (lane == 0) cycles[0] = t1 - t0;
    if (v + acc == 12345.f) sink[lane] = v + acc;  // never: keeps both
}

// Writes 128 MiB so that the 60 MB L2 holds none of `far` before a partial_wait launch.
__global__ void evict(float* buf, size_t n) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) buf[i] = 0.f;
}

long long slowest(long long* d_cycles, int warps) {
    std::vector<long long> c(warps);
    HIP_CHECK(hipMemcpy(c.data(), d_cycles, warps * sizeof(long long), hipMemcpyDeviceToHost));
    return *std::max_element(c.begin(), c.end());
}

template <int N>
void ffma(const char* name, int warps, long long* d_cycles, float* sink) {
    hipLaunchKernelGGL(ffma_chains<N>, dim3(1), dim3(32 * warps), 0, 0, d_cycles, sink, 0.999f, 0.001f);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    const double per_ffma = double(slowest(d_cycles, warps)) / (double(kSteps) * N);
    std::printf("ISSUE_RATE %s warps %d cycles_per_ffma %.3f cycles_per_ffma_per_sm %.3f\n", name, warps, per_ffma,
                per_ffma / warps);
}

void gemm(int warps, long long* d_cycles, float* sink) {
    hipLaunchKernelGGL(lds_gemm, dim3(1), dim3(32 * warps), 0, 0, d_cycles, sink);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    std::printf("ISSUE_RATE lds_gemm_w%d warps %d cycles_per_kk %.2f\n", warps, warps,
                double(slowest(d_cycles, warps)) / (double(kRounds) * kKk));
}

template <int L>
void wait_variant(const char* name, long long* d_cycles, float* sink, const float* near, const float* far, float* junk,
                  size_t junk_n) {
    hipLaunchKernelGGL(evict, dim3(1056), dim3(256), 0, 0, junk, junk_n);
    hipLaunchKernelGGL(partial_wait<L>, dim3(1), dim3(32), 0, 0, d_cycles, sink, near, far, 0.5f);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    std::printf("ISSUE_RATE %s ffmas %d cycles_per_step %.1f\n", name, L, double(slowest(d_cycles, 1)) / (kSteps / 8));
}

int main() {
    long long* d_cycles;
    float* sink;
    HIP_CHECK(hipMalloc(&d_cycles, 32 * sizeof(long long)));
    HIP_CHECK(hipMalloc(&sink, 1024 * sizeof(float)));
    ffma<1>("ffma_1", 1, d_cycles, sink);
    ffma<2>("ffma_2", 1, d_cycles, sink);
    ffma<4>("ffma_4", 1, d_cycles, sink);
    ffma<8>("ffma_8", 1, d_cycles, sink);
    ffma<16>("ffma_16", 1, d_cycles, sink);
    for (int w : {4, 8, 16, 32}) {
        char name[32];
        std::snprintf(name, sizeof name, "ffma16_w%d", w);
        ffma<16>(name, w, d_cycles, sink);
    }
    for (int w : {1, 2, 4, 8, 16, 32}) gemm(w, d_cycles, sink);
    // near: 16 KiB, L1-resident after the warm-up steps; far: a fresh 64 MiB region each variant
    const size_t far_floats = size_t(16) << 20, junk_n = size_t(32) << 20;
    float *near, *far, *junk;
    HIP_CHECK(hipMalloc(&near, 4096 * sizeof(float)));
    HIP_CHECK(hipMemset(near, 0, 4096 * sizeof(float)));
    HIP_CHECK(hipMalloc(&far, 4 * far_floats * sizeof(float)));
    HIP_CHECK(hipMemset(far, 0, 4 * far_floats * sizeof(float)));
    HIP_CHECK(hipMalloc(&junk, junk_n * sizeof(float)));
    wait_variant<0>("partial_wait_0", d_cycles, sink, near, far, junk, junk_n);
    wait_variant<64>("partial_wait_64", d_cycles, sink, near, far + far_floats, junk, junk_n);
    wait_variant<128>("partial_wait_128", d_cycles, sink, near, far + 2 * far_floats, junk, junk_n);
    wait_variant<256>("partial_wait_256", d_cycles, sink, near, far + 3 * far_floats, junk, junk_n);
    for (float* p : {near, far, junk}) HIP_CHECK(hipFree(p));
    HIP_CHECK(hipFree(d_cycles));
    HIP_CHECK(hipFree(sink));
    return 0;
}
