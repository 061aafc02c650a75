// L2 write-back behaviour: every thread writes one float4, over buffers from
// 4 MiB to 256 MiB (against a 60 MB L2 on the H200, 4 MiB on a Z100). Under
// a profiler that empties the caches first, the DRAM bytes written during the
// kernel show how much dirty data the L2 keeps and when it writes it back.
#include "../common/harness.h"

__global__ void fill(float4* out, long long n) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) out[i] = make_float4(1.f, 2.f, 3.f, 4.f);
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv);
    const long long max_bytes = 256ll << 20;
    float4* out;
    HIP_CHECK(hipMalloc(&out, max_bytes));
    for (long long mib : {4, 16, 32, 48, 64, 96, 128, 256}) {
        if (validation::small(argc, argv) && mib > 64) break;
        const long long n = (mib << 20) / sizeof(float4);
        char name[32];
        std::snprintf(name, sizeof name, "fill_%lldMiB", mib);
        validation::measure(single, "write_stream", name, mib << 20, double(mib << 20), [&] {
            hipLaunchKernelGGL(fill, dim3(unsigned((n + 255) / 256)), dim3(256), 0, 0, out, n);
        });
    }
    HIP_CHECK(hipFree(out));
    return 0;
}
