// The L1's size and sets as one thread sees them: a single thread chases a
// chain of lines (each line's first word holds the next line's index), several
// passes, and times every load of the last passes with clock64. A load under
// kHitCycles is an L1 hit. Families:
//  CAP:    L lines of a buffer visited in order (seq) or in a random cycle
//          (rand), for footprints of 16 KiB to 320 KiB, in a kernel with 4 bytes
//          of shared memory (its wait), and with 40 KiB of dynamic shared memory
//          more (a larger carve-out, a smaller L1);
//  CAP0:   the same with no shared memory at all (the wait is a global store);
//  LOCAL, LOCAL0: the same through a private array (local memory, as spills use
//          it), with 4 bytes of shared memory and with none: the thread first
//          copies the chain into it, then chases it there;
//  SET:    N lines S bytes apart (S = 1 KiB ... 256 KiB, N = 1 ... 48), no shared
//          memory, visited in order: where the hits stop tells the ways of a
//          set, if S maps lines to one set.
// With --carveout, each kernel variant runs once at 64 KiB (for the profiler).
// Prints per case: <family> <order or stride> <footprint bytes or N> <shared bytes>
// <timed loads> <hits> <median cycles of hits> <median cycles of misses>
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "../common/device_timers.h"
#include "../common/harness.h"

constexpr int kWords = 32;           // 4-byte words in a 128-byte line
constexpr int kMaxLines = 2560;      // 320 KiB of lines
constexpr int kWarmPasses = 4, kTimedPasses = 2;
constexpr unsigned kHitCycles = 100;  // an L1 hit takes ~34 cycles, an L2 hit ~265

// The latencies and the chain's copy bypass the L1 (cached in the L2 only), so
// that only the chased lines take L1 space.
__device__ void store_l2(unsigned* p, unsigned v) {
#if defined(__CUDA_ARCH__)
    asm volatile("st.global.cg.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
#else
    *p = v;
#endif
}
__device__ unsigned load_l2(const unsigned* p) {
#if defined(__CUDA_ARCH__)
    unsigned v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
#else
    return *(const volatile unsigned*)p;
#endif
}

// How a chase step waits for its load before reading the clock: a store of
// the loaded value (which needs it) that the clock read cannot pass. The
// shared-memory store makes a kernel use 4 bytes of shared memory, which
// moves the driver's carve-out; the global one (L2 only) uses none.
struct SharedSink {
    __device__ static void put(unsigned v, unsigned*) {
        __shared__ volatile unsigned sink;
        sink = v;
    }
};
struct GlobalSink {
    __device__ static void put(unsigned v, unsigned* slot) { store_l2(slot, v); }
};

// Chases `n` steps from line 0 of `buf` (indices in lines), `kWarmPasses` + `kTimedPasses` times
// round; records the cycles of each timed load (lat[kTimedPasses * kMaxLines] is the sink's).
template <class Sink>
__global__ void chase_global(const unsigned* buf, unsigned n, unsigned zero, unsigned* lat) {
    extern __shared__ unsigned dyn[];
    if (threadIdx.x != 0) return;
    if (zero) dyn[0] = zero;  // the dynamic shared memory is reserved (and never written)
    unsigned line = 0;
    for (int p = 0; p < kWarmPasses + kTimedPasses; ++p)
        for (unsigned k = 0; k < n; ++k) {
            const long long t0 = cu_cycles();
            line = buf[line * kWords + (line & zero)];
            Sink::put(line & zero, lat + kTimedPasses * kMaxLines);
            const long long dt = cu_cycles() - t0;
            if (p >= kWarmPasses) store_l2(&lat[(p - kWarmPasses) * n + k], unsigned(dt));
        }
}

// The same chain in a private array: element k of one thread sits in its own
// line (local memory interleaves the lanes' words), so n elements are n lines.
template <class Sink>
__global__ void chase_local(const unsigned* chain, unsigned n, unsigned zero, unsigned* lat) {
    unsigned priv[kMaxLines];
    if (threadIdx.x != 0) return;
    for (unsigned k = 0; k < n; ++k) priv[k] = load_l2(&chain[k]);
    unsigned line = 0;
    for (int p = 0; p < kWarmPasses + kTimedPasses; ++p)
        for (unsigned k = 0; k < n; ++k) {
            const long long t0 = cu_cycles();
            line = priv[line + (line & zero)];
            Sink::put(line & zero, lat + kTimedPasses * kMaxLines);
            const long long dt = cu_cycles() - t0;
            if (p >= kWarmPasses) store_l2(&lat[(p - kWarmPasses) * n + k], unsigned(dt));
        }
}

namespace {

unsigned median(std::vector<unsigned> v) {
    if (v.empty()) return 0;
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

void report(const char* family, const char* what, long long size, unsigned shared, const unsigned* d_lat,
            unsigned loads) {
    std::vector<unsigned> lat(loads), hit, miss;
    HIP_CHECK(hipMemcpy(lat.data(), d_lat, loads * sizeof(unsigned), hipMemcpyDeviceToHost));
    for (unsigned c : lat) (c < kHitCycles ? hit : miss).push_back(c);
    std::printf("%s %s %lld %u %u %zu %u %u\n", family, what, size, shared, loads, hit.size(), median(hit),
                median(miss));
}

// next[line] for a cycle through `lines` (a random one with `shuffle`), starting at 0.
std::vector<unsigned> cycle_of(unsigned lines, bool shuffle, std::mt19937& rng) {
    std::vector<unsigned> order(lines), next(lines);
    for (unsigned i = 0; i < lines; ++i) order[i] = i;
    if (shuffle) std::shuffle(order.begin() + 1, order.end(), rng);
    for (unsigned k = 0; k < lines; ++k) next[order[k]] = order[(k + 1) % lines];
    return next;
}

}  // namespace

int main(int argc, char** argv) {
    validation::once(argc, argv);
    // --carveout: each kernel variant once, at 64 KiB, for the profiler to read the carve-out it got.
    const bool carveout_only = validation::flag(argc, argv, "--carveout");
    // --near: 176 to 288 KiB by 16 and no SET, few enough launches to run whole under a profiler, whose
    // launches may hold another L1 than a stream's (results/h100-spillprofiled).
    const bool near = validation::flag(argc, argv, "--near");
    const unsigned first_kib = carveout_only ? 64 : near ? 176 : 16, last_kib = carveout_only ? 64 : near ? 288 : 320;
    const size_t buf_words = size_t(48) * (256 << 10) / 4;  // the largest SET span: 48 lines 256 KiB apart
    unsigned *buf, *lat, *chain;
    HIP_CHECK(hipMalloc(&buf, buf_words * sizeof(unsigned)));
    HIP_CHECK(hipMalloc(&chain, kMaxLines * sizeof(unsigned)));
    HIP_CHECK(hipMalloc(&lat, (kTimedPasses * kMaxLines + 1) * sizeof(unsigned)));
    std::vector<unsigned> image(buf_words, 0);
    std::mt19937 rng(20261201);
    const unsigned shared_sizes[] = {0, 40 << 10};
    for (int shuffle = 0; shuffle < (carveout_only ? 1 : 2); ++shuffle)
        for (unsigned kib = first_kib; kib <= last_kib; kib += near ? 16 : 8) {
            const unsigned lines = kib * 1024 / 128;
            const std::vector<unsigned> next = cycle_of(lines, shuffle, rng);
            for (unsigned i = 0; i < lines; ++i) image[size_t(i) * kWords] = next[i];
            HIP_CHECK(hipMemcpy(buf, image.data(), size_t(lines) * kWords * sizeof(unsigned), hipMemcpyHostToDevice));
            HIP_CHECK(hipMemcpy(chain, next.data(), lines * sizeof(unsigned), hipMemcpyHostToDevice));
            for (unsigned sh : shared_sizes) {
                hipLaunchKernelGGL(chase_global<SharedSink>, dim3(1), dim3(32), sh, 0, buf, lines, 0u, lat);
                HIP_CHECK(hipGetLastError());
                report("CAP", shuffle ? "rand" : "seq", kib * 1024ll, sh, lat, kTimedPasses * lines);
            }
            hipLaunchKernelGGL(chase_global<GlobalSink>, dim3(1), dim3(32), 0, 0, buf, lines, 0u, lat);
            HIP_CHECK(hipGetLastError());
            report("CAP0", shuffle ? "rand" : "seq", kib * 1024ll, 0, lat, kTimedPasses * lines);
            hipLaunchKernelGGL(chase_local<SharedSink>, dim3(1), dim3(32), 0, 0, chain, lines, 0u, lat);
            HIP_CHECK(hipGetLastError());
            report("LOCAL", shuffle ? "rand" : "seq", kib * 1024ll, 0, lat, kTimedPasses * lines);
            hipLaunchKernelGGL(chase_local<GlobalSink>, dim3(1), dim3(32), 0, 0, chain, lines, 0u, lat);
            HIP_CHECK(hipGetLastError());
            report("LOCAL0", shuffle ? "rand" : "seq", kib * 1024ll, 0, lat, kTimedPasses * lines);
        }
    for (unsigned stride_kib = 1; stride_kib <= (carveout_only || near ? 0u : 256u); stride_kib *= 2) {
        const size_t stride_words = size_t(stride_kib) * 1024 / 4;
        for (unsigned n = 1; n <= 48; ++n) {
            std::fill(image.begin(), image.end(), 0u);
            // Line index k*stride/128: the chain holds line indices.
            for (unsigned k = 0; k < n; ++k)
                image[k * stride_words] = unsigned(((k + 1) % n) * stride_words / kWords);
            HIP_CHECK(hipMemcpy(buf, image.data(), size_t(n) * stride_words * sizeof(unsigned), hipMemcpyHostToDevice));
            hipLaunchKernelGGL(chase_global<GlobalSink>, dim3(1), dim3(32), 0, 0, buf, n, 0u, lat);
            HIP_CHECK(hipGetLastError());
            char what[16];
            std::snprintf(what, sizeof what, "%uK", stride_kib);
            report("SET", what, n, 0, lat, kTimedPasses * n);
        }
    }
    HIP_CHECK(hipFree(buf));
    HIP_CHECK(hipFree(chain));
    HIP_CHECK(hipFree(lat));
    return 0;
}
