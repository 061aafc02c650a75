// Shared-memory instructions that issue with no lane on: a predicate false in every lane, as the idle
// warps of a tree scan or reduction run them (`if (t < d) s[..] += s[..]` compiles to @!P LDS, LDS,
// FADD, STS in every warp). Do they take a slot of the SM's shared-memory pipe, which serves one
// wavefront a cycle (validation/results/h200-ldslatency)?
//
// One block of W warps on one SM. Each warp times with clock64 a loop of kSteps iterations of 8
// independent shared loads (or stores) of one word a lane, lane i at word i x STRIDE, under a
// predicate p (inline PTX, so that ptxas keeps the guard and does not branch around it):
//   on:  p true in every lane of every warp (STRIDE 1: one wavefront an instruction; 32: 32);
//   off: p false in every lane of every warp;
//   mix: p true in warp 0 only (at STRIDE), false in the W - 1 others: blelloch's one busy warp beside
//        its idle ones.
// Prints per case the median over the warps (mix: warp 0's) of cycles an iteration:
//   LDS_PREDICATED <ld|st> <on|off|mix> <stride> <warps> <cycles an iteration>
// NVIDIA only (inline PTX); elsewhere a plain guarded access, which a DCU skips with its exec mask.
#include "../common/harness.h"

constexpr int kSteps = 1024, kWarm = 16, kWords = 32 * 33;
enum Mode { On = 0, Off = 1, Mix = 2 };

template <bool STORE>
__device__ __forceinline__ void eight(unsigned addr, float* word, int on, float (&v)[8]) {
#if defined(__CUDA_ARCH__)
    if (STORE)
        asm volatile(
            "{\n .reg .pred p;\n setp.ne.s32 p, %8, 0;\n"
            " @p st.volatile.shared.f32 [%9], %0;\n @p st.volatile.shared.f32 [%9], %1;\n"
            " @p st.volatile.shared.f32 [%9], %2;\n @p st.volatile.shared.f32 [%9], %3;\n"
            " @p st.volatile.shared.f32 [%9], %4;\n @p st.volatile.shared.f32 [%9], %5;\n"
            " @p st.volatile.shared.f32 [%9], %6;\n @p st.volatile.shared.f32 [%9], %7;\n}"
            : "+f"(v[0]), "+f"(v[1]), "+f"(v[2]), "+f"(v[3]), "+f"(v[4]), "+f"(v[5]), "+f"(v[6]), "+f"(v[7])
            : "r"(on), "r"(addr)
            : "memory");
    else
        asm volatile(
            "{\n .reg .pred p;\n setp.ne.s32 p, %8, 0;\n"
            " @p ld.volatile.shared.f32 %0, [%9];\n @p ld.volatile.shared.f32 %1, [%9];\n"
            " @p ld.volatile.shared.f32 %2, [%9];\n @p ld.volatile.shared.f32 %3, [%9];\n"
            " @p ld.volatile.shared.f32 %4, [%9];\n @p ld.volatile.shared.f32 %5, [%9];\n"
            " @p ld.volatile.shared.f32 %6, [%9];\n @p ld.volatile.shared.f32 %7, [%9];\n}"
            : "+f"(v[0]), "+f"(v[1]), "+f"(v[2]), "+f"(v[3]), "+f"(v[4]), "+f"(v[5]), "+f"(v[6]), "+f"(v[7])
            : "r"(on), "r"(addr)
            : "memory");
#else
    (void)addr;
    volatile float* w = word;
    if (on)
        for (int k = 0; k < 8; ++k) {
            if (STORE) *w = v[k];
            else v[k] += *w;
        }
#endif
}

template <bool STORE>
__global__ void steps(long long* out, float* sink, int mode, int stride) {
    __shared__ float buf[kWords];
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) buf[i] = 0;
    __syncthreads();
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int on = mode == On || (mode == Mix && warp == 0);
    float* word = &buf[(lane * stride) % kWords];
#if defined(__CUDA_ARCH__)
    const unsigned addr = unsigned(__cvta_generic_to_shared(word));
#else
    const unsigned addr = 0;
#endif
    float v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
#pragma unroll 1
    for (int i = 0; i < kWarm; ++i) eight<STORE>(addr, word, on, v);
    const long long t0 = clock64();
#pragma unroll 1
    for (int i = 0; i < kSteps; ++i) eight<STORE>(addr, word, on, v);
    const long long t1 = clock64();
    if (lane == 0) out[warp] = t1 - t0;
    float s = 0;
    for (float x : v) s += x;
    if (s == 12345.f) sink[threadIdx.x] = s;  // never: keeps the loads
}

int main() {
    long long* out;
    float* sink;
    HIP_CHECK(hipMalloc(&out, 32 * sizeof(long long)));
    HIP_CHECK(hipMalloc(&sink, 1024 * sizeof(float)));
    std::vector<long long> host(32);
    const char* names[] = {"on", "off", "mix"};
    for (int store = 0; store <= 1; ++store)
        for (int mode : {On, Off, Mix})
            for (int stride : {1, 32}) {
                if (mode == Off && stride == 32) continue;  // no lane on: the stride is not seen
                for (int warps : {1, 4, 16}) {
                    if (mode == Mix && warps == 1) continue;  // warp 0 alone: `on`
                    for (int rep = 0; rep < 2; ++rep) {  // the first launch warms the code
                        if (store) hipLaunchKernelGGL(steps<true>, dim3(1), dim3(32 * warps), 0, 0, out, sink, mode, stride);
                        else hipLaunchKernelGGL(steps<false>, dim3(1), dim3(32 * warps), 0, 0, out, sink, mode, stride);
                        HIP_CHECK(hipGetLastError());
                        HIP_CHECK(hipDeviceSynchronize());
                    }
                    HIP_CHECK(hipMemcpy(host.data(), out, warps * sizeof(long long), hipMemcpyDeviceToHost));
                    std::vector<long long> w(host.begin(), host.begin() + warps);
                    const long long c = mode == Mix ? w[0] : (std::sort(w.begin(), w.end()), w[w.size() / 2]);
                    std::printf("LDS_PREDICATED %s %s %d %d %.2f\n", store ? "st" : "ld", names[mode], stride, warps,
                                double(c) / kSteps);
                }
            }
    HIP_CHECK(hipFree(out));
    HIP_CHECK(hipFree(sink));
    return 0;
}
