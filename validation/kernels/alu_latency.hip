// Dependent-issue latency of the ALU instructions in the validation kernels'
// loops, timed inside the kernel with clock64 over chains of 1,024 steps
// (one warp; the SASS is kept by run_h200_micro.sh to check what each step
// compiles to). The lds_bank and constant kernels make each load depend on
// the last through `int(acc) & zero`: FADD, F2I.TRUNC, LOP3, a shift, then
// the address. dcusim counts these as `compute N` at cu.wave_issue_cycles each.
//   fadd:   acc = acc + x                      (FADD)
//   f2i:    i = int(f); f = bits(i | k)        (F2I, LOP3)
//   chain:  the constant kernel's step without its load: acc += bits(((int(acc) & zero) << 2) | k)
#include "../common/harness.h"

constexpr int kSteps = 1024, kWarm = 64;

__device__ __forceinline__ float fadd_step(float v, float x, int) { return v + x; }
__device__ __forceinline__ float f2i_step(float v, float, int k) { return __int_as_float(int(v) | k); }
__device__ __forceinline__ float chain_step(float v, float, int k) {
    return v + __int_as_float(((int(v) & k) << 2) | 0x3c000000);
}

template <int KIND>
__global__ void alu(long long* cycles, float* sink, float x, int k) {
    float v = x;
    auto step = [&](float a) {
        if (KIND == 0) return fadd_step(a, x, k);
        if (KIND == 1) return f2i_step(a, x, k);
        return chain_step(a, x, k);
    };
    for (int i = 0; i < kWarm; ++i) v = step(v);
    const long long t0 = clock64();
    for (int i = 0; i < kSteps; ++i) v = step(v);
    const long long t1 = clock64();
    if (threadIdx.x == 0) cycles[0] = t1 - t0;
    if (v == 12345.f) sink[threadIdx.x] = v;  // never: keeps the chain
}

template <int KIND>
void run(const char* name, long long* d_cycles, float* sink) {
    // x = 0.25: FADD never overflows in 1,088 steps; k = 0x3e800000 keeps f2i's value near 0.25.
    hipLaunchKernelGGL(alu<KIND>, dim3(1), dim3(32), 0, 0, d_cycles, sink, 0.25f, KIND == 1 ? 0x3e800000 : 0);
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
    HIP_CHECK(hipFree(d_cycles));
    HIP_CHECK(hipFree(sink));
    return 0;
}
