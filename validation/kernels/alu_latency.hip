// Dependent-issue latency of the ALU instructions in the validation kernels'
// loops, timed inside the kernel with clock64 over chains of 1,024 steps
// (one warp; the SASS is kept by run.py device alu_latency to check what each step
// compiles to). The lds_bank and constant kernels make each load depend on
// the last through `int(acc) & zero`: FADD, F2I.TRUNC, LOP3, a shift, then
// the address. dcusim counts these as `compute N` at cu.wave_issue_cycles each.
//   fadd:   acc = acc + x                      (FADD)
//   f2i:    i = int(f); f = bits(i | k)        (F2I, LOP3)
//   chain:  the constant kernel's step without its load: acc += bits(((int(acc) & zero) << 2) | k)
//   i2f:    f = float(bits(f) & k)              (int to float, then LOP3)
//   f2f:    f = float(half(f))                  (F2F to half, and back)
//   frnd:   f = rint(f) + x                     (FRND, FADD)
//   mufu:   f = exp(-f)                         (FMUL, MUFU.EX2)
//   imad:   i = i x k + 1, on the float's bits  (IMAD)
//   imad_hi: i = umulhi(i, k) + 1               (IMAD.HI, an add; the lds_bank kernel's modulo has one)
//   imad_wide: w = i x k (64-bit); i = lo(w) ^ hi(w)   (IMAD.WIDE, LOP3: address arithmetic)
//   iadd64: w = i + k64 (64-bit); i = lo(w) ^ hi(w)    (IADD3, IADD3.X, LOP3: pointer arithmetic)
//   mod64:  i = (i x 1) % words (64-bit, words a run-time 2^29)   (the coalescing kernels' index)
//   imad_wide_u32: w = u32(i) x k; i = lo(w) ^ hi(w)             (IMAD.WIDE.U32, LOP3)
//   imad_wide_acc: w = u32(i) x k + w; i = lo(w)                 (IMAD.WIDE.U32 with a 64-bit addend: an address)
// The SASS (sass.txt) shows what each became; dcutrace takes F2I, I2F, F2F,
// FRND and MUFU as long-latency (compute N long L).
#include "../common/harness.h"

#if defined(__CUDACC__) && !defined(__HIP_PLATFORM_AMD__) && !defined(__HIPCC__)
#include <cuda_fp16.h>
#else
#include <hip/hip_fp16.h>
#endif

constexpr int kSteps = 1024, kWarm = 64;

__device__ __forceinline__ float fadd_step(float v, float x, int) { return v + x; }
__device__ __forceinline__ float f2i_step(float v, float, int k) { return __int_as_float(int(v) | k); }
__device__ __forceinline__ float chain_step(float v, float, int k) {
    return v + __int_as_float(((int(v) & k) << 2) | 0x3c000000);
}
__device__ __forceinline__ float i2f_step(float v, float, int k) { return float(__float_as_int(v) & k); }
__device__ __forceinline__ float f2f_step(float v, float, int) { return __half2float(__float2half_rn(v)); }
__device__ __forceinline__ float frnd_step(float v, float x, int) { return rintf(v) + x; }
__device__ __forceinline__ float mufu_step(float v, float, int) { return __expf(-v); }
__device__ __forceinline__ float imad_step(float v, float, int k) { return __int_as_float(__float_as_int(v) * k + 1); }
__device__ __forceinline__ float imad_hi_step(float v, float, int k) {
    return __int_as_float(int(__umulhi(unsigned(__float_as_int(v)), unsigned(k)) + 1u));
}

__device__ __forceinline__ float imad_wide_step(float v, float, int k) {
    const long long w = (long long)__float_as_int(v) * k;
    return __int_as_float(int(w) ^ int(w >> 32));
}
__device__ __forceinline__ float iadd64_step(float v, long long k64) {
    const long long w = (long long)__float_as_int(v) + k64;
    return __int_as_float(int(w) ^ int(w >> 32));
}
__device__ __forceinline__ float mod64_step(float v, long long words) {
    const long long w = ((long long)__float_as_int(v) * 1) % words;
    return __int_as_float(int(w) + 1);
}

__device__ __forceinline__ float imad_wide_u32_step(float v, int k) {
    const unsigned long long w = (unsigned long long)unsigned(__float_as_int(v)) * unsigned(k);
    return __int_as_float(int(w) ^ int(w >> 32));
}
__device__ __forceinline__ float imad_wide_acc_step(float v, int k, unsigned long long& acc) {
    acc = (unsigned long long)unsigned(__float_as_int(v)) * unsigned(k) + acc;
    return __int_as_float(int(acc));
}

template <int KIND>
__global__ void alu(long long* cycles, float* sink, float x, int k, long long k64, int zero) {
    float v = x;
    unsigned long long acc = (unsigned long long)k64;
    // The integer kinds built on kernel parameters alone would run on the uniform datapath (UIMAD...):
    // a lane-dependent zero keeps them on the vector one, as in the suite's kernels.
    if (KIND >= 9) v = __int_as_float(__float_as_int(v) | (int(threadIdx.x) & zero));
    auto step = [&](float a) {
        if (KIND == 0) return fadd_step(a, x, k);
        if (KIND == 1) return f2i_step(a, x, k);
        if (KIND == 2) return chain_step(a, x, k);
        if (KIND == 3) return i2f_step(a, x, k);
        if (KIND == 4) return f2f_step(a, x, k);
        if (KIND == 5) return frnd_step(a, x, k);
        if (KIND == 6) return mufu_step(a, x, k);
        if (KIND == 7) return imad_step(a, x, k);
        if (KIND == 9) return imad_wide_step(a, x, k);
        if (KIND == 10) return iadd64_step(a, k64);
        if (KIND == 11) return mod64_step(a, k64);
        if (KIND == 12) return imad_wide_u32_step(a, k);
        if (KIND == 13) return imad_wide_acc_step(a, k, acc);
        return imad_hi_step(a, x, k);
    };
    for (int i = 0; i < kWarm; ++i) v = step(v);
    const long long t0 = clock64();
    for (int i = 0; i < kSteps; ++i) v = step(v);
    const long long t1 = clock64();
    if (threadIdx.x == 0) cycles[0] = t1 - t0;
    if (v == 12345.f || acc == 12345) sink[threadIdx.x] = v;  // never: keeps the chain
}

template <int KIND>
void run(const char* name, long long* d_cycles, float* sink) {
    // x = 0.25: FADD never overflows in 1,088 steps; k = 0x3e800000 keeps f2i's value near 0.25,
    // k = 0x3ff keeps i2f's value small.
    // k = -1 (all ones) makes umulhi(i, k) + 1 = i for i > 0: the value stays put.
    // imad_wide: k = 3; iadd64 adds 2^32 + 1; mod64 takes its index modulo 2^29, as coalescing/stride1.
    const int k = KIND == 1 ? 0x3e800000 : KIND == 3 ? 0x3ff : KIND == 7 || KIND >= 9 ? 3 : KIND == 8 ? -1 : 0;
    const long long k64 = KIND == 10 ? (1ll << 32) + 1 : KIND == 11 ? 1ll << 29 : 0;
    hipLaunchKernelGGL(alu<KIND>, dim3(1), dim3(32), 0, 0, d_cycles, sink, 0.25f, k, k64, 0);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    long long c = 0;
    HIP_CHECK(hipMemcpy(&c, d_cycles, sizeof c, hipMemcpyDeviceToHost));
    std::printf("ALU_LATENCY %s cycles_per_step %.2f\n", name, double(c) / kSteps);
}

int main() {
    long long* d_cycles;
    float* sink;
    HIP_CHECK(hipMalloc(&d_cycles, sizeof(long long)));
    HIP_CHECK(hipMalloc(&sink, 32 * sizeof(float)));
    run<0>("fadd", d_cycles, sink);
    run<1>("f2i_lop3", d_cycles, sink);
    run<2>("fadd_f2i_lop3_shf_lop3", d_cycles, sink);
    run<3>("i2f_lop3", d_cycles, sink);
    run<4>("f2f_and_back", d_cycles, sink);
    run<5>("frnd_fadd", d_cycles, sink);
    run<6>("fmul_mufu", d_cycles, sink);
    run<7>("imad", d_cycles, sink);
    run<8>("imad_hi_iadd", d_cycles, sink);
    run<9>("imad_wide_lop3", d_cycles, sink);
    run<10>("iadd3_iadd3x_lop3", d_cycles, sink);
    run<11>("mod64_iadd", d_cycles, sink);
    run<12>("imad_wide_u32_lop3", d_cycles, sink);
    run<13>("imad_wide_u32_acc", d_cycles, sink);
    HIP_CHECK(hipFree(d_cycles));
    HIP_CHECK(hipFree(sink));
    return 0;
}
