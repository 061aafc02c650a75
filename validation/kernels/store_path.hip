// What limits stores on their way to the L2: a rate (of each SM's path, or of
// the L2 slices), or the stores each SM keeps in flight? Every thread stores
// one float4 per iteration of a grid-stride loop, over 256-thread blocks, with
// 1, 2, 4 or 8 blocks per SM (8 to 64 warps an SM; blocks spread evenly).
// A rate does not move with the warps; a limit on stores in flight does,
// until the L2's own rate binds. Variants (W: warps per SM):
//   fresh_wW:   16 MiB written once: new lines, which stay in the L2 (under
//               the ~29.5 MB of dirty data it keeps);
//   rewrite_wW: the same 8 MiB written 16 times: lines already in the L2
//               (rw_mix's l2_r0w1 is this at W = 32, unrolled 4);
//   dram_wW:    64 MiB written once (W = 16, 64): new lines, most of which go
//               on to DRAM.
// --small is the same program (nothing here is captured).
#include "../common/harness.h"

__global__ void store_sweep(float4* out, long long n, int passes) {
    const long long step = (long long)gridDim.x * blockDim.x;
#pragma unroll 1
    for (int p = 0; p < passes; ++p)
#pragma unroll 1
        for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += step)
            out[i] = make_float4(float(p), 2.f, 3.f, 4.f);
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv);
    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    const long long max_bytes = 64ll << 20;
    float4* out;
    HIP_CHECK(hipMalloc(&out, max_bytes));
    HIP_CHECK(hipMemset(out, 0, max_bytes));
    struct Variant { const char* family; long long mib; int passes; };
    const Variant kinds[] = {{"fresh", 16, 1}, {"rewrite", 8, 16}, {"dram", 64, 1}};
    for (const Variant& v : kinds)
        for (int per_sm : {1, 2, 4, 8}) {
            if (v.mib == 64 && (per_sm == 1 || per_sm == 4)) continue;
            const long long n = (v.mib << 20) / (long long)sizeof(float4);
            const unsigned blocks = unsigned(sms * per_sm);
            char name[32];
            std::snprintf(name, sizeof name, "%s_w%d", v.family, 8 * per_sm);
            validation::measure(single, "store_path", name, v.mib << 20, double(v.mib << 20) * v.passes, [&] {
                hipLaunchKernelGGL(store_sweep, dim3(blocks), dim3(256), 0, 0, out, n, v.passes);
            });
        }
    HIP_CHECK(hipFree(out));
    return 0;
}
