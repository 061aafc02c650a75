// Where a short streaming kernel's time goes. The soa kernel of the suite
// (out[i] = x[i], 1 Mi floats in blocks of 256) and a nearly empty kernel,
// each wave recording, from its first lane:
//   - its CU (SM), and when it started, on the GPU-wide timer (ns);
//   - the CU's cycles from its start to its store's issue (after its load's data came back).
// From these: how fast blocks start at the launch, how long a block's waves
// live, and the gap between a block's end and the next block's start on the
// same CU. Usage: block_timeline OUT_DIR; writes OUT_DIR/timeline_<kernel>.csv
// (run, wave, block, cu, start_ns, cycles; 6 runs of each kernel) and prints each launch's wall time.
#include <string>

#include "../common/device_timers.h"
#include "../common/harness.h"

struct Rec {
    unsigned long long start;
    unsigned cu;
    unsigned cycles;
};

#if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC__)
constexpr int kWave = 64;  // gfx9 wave64
#else
constexpr int kWave = 32;
#endif

// What a wave reads before its work: the timers, its thread index, its CU,
// and where its first lane's record goes. finish() is the second timer read
// and the record: all that follows that read is one predicated store and the exit.
struct WaveStamp {
    unsigned long long t0;
    long long c0, i;
    bool lead;
    Rec* r;
    unsigned cu;
    __device__ explicit WaveStamp(Rec* rec)
        : t0(global_ns()), c0(cu_cycles()), i(blockIdx.x * (long long)blockDim.x + threadIdx.x),
          lead(threadIdx.x % kWave == 0), r(rec + i / kWave), cu(cu_id()) {}
    __device__ void finish() const {
        const long long c1 = cu_cycles();
        if (lead) *r = {t0, cu, unsigned(c1 - c0)};
    }
};

__global__ void soa_timed(float* out, const float* x, Rec* rec) {
    const WaveStamp w(rec);
    out[w.i] = x[w.i];
    w.finish();
}

// The same load, no store (one never taken, as in launch.hip).
__global__ void load_timed(float* out, const float* x, Rec* rec) {
    const WaveStamp w(rec);
    if (x[w.i] == 12345.f) out[w.i] = 1.f;
    w.finish();
}

// Stores only, enough (64 MiB) to keep the HBM busy writing: whether a
// block's end waits for its stores' answers shows in the gap before the next
// block starts, which then grows with the write queue.
__global__ void write_timed(float4* big, long long threads_total, Rec* rec) {
    const WaveStamp w(rec);
    for (int k = 0; k < 4; ++k) big[k * threads_total + w.i] = make_float4(1.f, 2.f, 3.f, float(k));
    w.finish();
}

__global__ void empty_timed(Rec* rec) {
    const WaveStamp w(rec);
    w.finish();
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: block_timeline OUT_DIR\n");
        return 2;
    }
    const std::string dir = argv[1];
    const long long n = 1ll << 20;  // the suite's --small size of layout/soa and coalescing/stride1
    const int threads = 256;
    const unsigned blocks = unsigned(n / threads);
    const long long waves = n / kWave;
    float *x, *out;
    Rec* rec;
    HIP_CHECK(hipMalloc(&x, sizeof(float) * n));
    HIP_CHECK(hipMalloc(&out, sizeof(float) * n));
    HIP_CHECK(hipMalloc(&rec, sizeof(Rec) * waves));
    HIP_CHECK(hipMemset(x, 0, sizeof(float) * n));
    float4* big;
    HIP_CHECK(hipMalloc(&big, sizeof(float4) * 4 * n));
    std::vector<Rec> h(waves);
    // A 256 MiB buffer written between runs pushes the soa kernel's data out of the L2, as the profiler's flush does.
    const long long scrub_n = 64ll << 20;
    float* scrub;
    HIP_CHECK(hipMalloc(&scrub, sizeof(float) * scrub_n));
    hipEvent_t a, b;
    HIP_CHECK(hipEventCreate(&a));
    HIP_CHECK(hipEventCreate(&b));
    for (const char* kernel : {"soa", "load", "empty", "write"}) {
        const std::string path = dir + "/timeline_" + kernel + ".csv";
        FILE* f = std::fopen(path.c_str(), "w");
        if (!f) {
            std::fprintf(stderr, "cannot write %s\n", path.c_str());
            return 1;
        }
        std::fprintf(f, "run,wave,block,cu,start_ns,cycles\n");
        for (int run = 0; run < 6; ++run) {
            HIP_CHECK(hipMemset(scrub, run, sizeof(float) * scrub_n));
            HIP_CHECK(hipMemset(rec, 0, sizeof(Rec) * waves));
            HIP_CHECK(hipDeviceSynchronize());
            HIP_CHECK(hipEventRecord(a, 0));
            if (kernel[0] == 's') hipLaunchKernelGGL(soa_timed, dim3(blocks), dim3(threads), 0, 0, out, x, rec);
            else if (kernel[0] == 'w') hipLaunchKernelGGL(write_timed, dim3(blocks), dim3(threads), 0, 0, big, n, rec);
            else if (kernel[0] == 'l') hipLaunchKernelGGL(load_timed, dim3(blocks), dim3(threads), 0, 0, out, x, rec);
            else hipLaunchKernelGGL(empty_timed, dim3(blocks), dim3(threads), 0, 0, rec);
            HIP_CHECK(hipEventRecord(b, 0));
            HIP_CHECK(hipEventSynchronize(b));
            HIP_CHECK(hipGetLastError());
            float ms = 0;
            HIP_CHECK(hipEventElapsedTime(&ms, a, b));
            HIP_CHECK(hipMemcpy(h.data(), rec, sizeof(Rec) * waves, hipMemcpyDeviceToHost));
            const long long per_block = threads / kWave;
            for (long long w = 0; w < waves; ++w)
                std::fprintf(f, "%d,%lld,%lld,%u,%llu,%u\n", run, w, w / per_block, h[w].cu, h[w].start, h[w].cycles);
            std::printf("RESULT block_timeline %s_%d %u %.6f 0\n", kernel, run, blocks, double(ms));
        }
        std::fclose(f);
    }
    HIP_CHECK(hipFree(x));
    HIP_CHECK(hipFree(out));
    HIP_CHECK(hipFree(rec));
    HIP_CHECK(hipFree(scrub));
    HIP_CHECK(hipFree(big));
    return 0;
}
