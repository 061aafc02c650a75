// How fast lines cross between the partitions of an L2 that keeps copies per
// side (the H200: two partitions; results/h200-l2sides, h200-l2farhits). An SM
// reading a line that only the other partition holds gets it over the link
// between them; one whose own partition holds it (as home or copy) does not.
//
// First each SM's side: SM 0 reads a region; then one thread on every SM times
// its own 256 lines of it (loads that skip the L1). On SM 0's side all hit
// near (~300 cycles); on the other side the half homed by SM 0's side are far
// hits (~480). Then, after a 256 MiB memset has emptied the L2 each time:
//   near_S   side S reads a buffer that side S read just before: all hits on S;
//   far_S    side S reads a buffer the other side read just before: the half
//            of it homed on the other side crosses the link towards S;
//   same     both sides at once, each its own buffer: no crossing;
//   swap     both sides at once, each the other's buffer: both ways at once;
//   cold_S   side S reads a buffer from DRAM (for scale);
//   write_S  side S writes a buffer whole (half of it homed on the other side,
//            written through to there).
// Each pass is of B bytes (8 and 16 MiB), split evenly over the side's blocks (8
// of 256 threads an SM), each thread with 8 float4 loads (ld.cg) in flight.
// Before each variant a 256 MiB memset, then both sides reading it, leave the L2 clean.
// Timed from the first block's start to the last block's end, on the GPU-wide
// timer (ns), over the blocks of the side(s) that work; the others exit at once.
// Prints SIDES <sms on side 0> <on side 1> <unclassified>, SIDE <sm> <far of 256>,
// then per variant, size and launch: FABRIC <variant> <bytes> <launch> <span ns> <event ms>. With --once, one
// launch each (for ncu: every kernel of a variant is a `stream`, the scrub's read, the fills, the timed pass last).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "../common/device_timers.h"
#include "../common/harness.h"

constexpr int kProbeLines = 256;  // lines each SM times
constexpr int kWords = 32;        // 4-byte words in a 128-byte line
constexpr unsigned kNear = 400;   // cycles: a near hit is under, a far hit over (results/h200-l2farhits)
constexpr int kThreads = 256;
constexpr unsigned kBlocksPerSm = 8;  // 8 x 256 threads: a full SM
constexpr int kUnroll = 8;            // float4 loads a thread has in flight
constexpr int kLaunches = 7;

__device__ unsigned load_l2(const unsigned* p) {
#if defined(__CUDA_ARCH__)
    unsigned v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
#else
    return *(const volatile unsigned*)p;
#endif
}

__device__ float4 load_l2_v4(const float4* p) {
#if defined(__CUDA_ARCH__)
    float4 v;
    asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    return v;
#else
    const volatile float* q = reinterpret_cast<const volatile float*>(p);
    return make_float4(q[0], q[1], q[2], q[3]);
#endif
}

// The first block found on SM 0 reads the whole region.
__global__ void warm_on_sm0(const unsigned* region, unsigned lines, unsigned* claimed, unsigned* sink) {
    __shared__ int mine;
    if (threadIdx.x == 0) mine = cu_id() == 0 && atomicCAS(claimed, 0u, 1u) == 0u;
    __syncthreads();
    if (!mine) return;
    unsigned acc = 0;
    for (unsigned l = threadIdx.x; l < lines; l += blockDim.x) acc += load_l2(region + size_t(l) * kWords);
    if (acc == 0x9e3779b9u) *sink = acc;
}

// One thread a SM times its own lines of the region, one dependent load at a time.
__global__ void probe_sides(const unsigned* region, unsigned* claimed, unsigned* far_lines, unsigned zero) {
    const unsigned sm = cu_id();
    if (threadIdx.x != 0 || atomicCAS(&claimed[sm], 0u, 1u) != 0u) return;
    __shared__ unsigned sink;
    const unsigned* mine = region + size_t(sm) * kProbeLines * kWords;
    unsigned v = 0, far = 0;
    for (int i = 0; i < kProbeLines; ++i) {
        const long long t0 = cu_cycles();
        v = load_l2(mine + size_t(i) * kWords + (v & zero));
        sink = v & zero;  // issues once the value is back; the timer is read after it
        far += unsigned(cu_cycles() - t0) >= kNear;
    }
    far_lines[sm] = far + (sink & zero);
}

struct Span {
    unsigned long long first, last;
};

// Blocks on side s read (op 0) or write (op 1) bufs[s], n float4, split over the side's blocks: a block's rank
// is its SM's index on its side (rank_of) x 8 + its turn among its SM's blocks (per_sm), and its threads take
// the float4 rank x 256 + thread, then every side x 256 further (8 at a time, all in flight). A block whose side
// has no buffer, or past its SM's 8, exits. The span runs from the first working block's start to the last
// one's end.
__global__ void stream(float4* buf0, float4* buf1, unsigned n, const unsigned char* side, const unsigned* rank_of,
                       unsigned per_side0, unsigned per_side1, unsigned* per_sm, int op, Span* span, float* sink) {
    __shared__ int s;
    __shared__ unsigned rank;
    if (threadIdx.x == 0) {
        const unsigned sm = cu_id();
        s = side[sm];
        const unsigned turn = atomicAdd(&per_sm[sm], 1u);
        rank = turn < kBlocksPerSm ? rank_of[sm] * kBlocksPerSm + turn : ~0u;
    }
    __syncthreads();
    float4* buf = s == 0 ? buf0 : s == 1 ? buf1 : nullptr;
    const unsigned blocks = s == 0 ? per_side0 : per_side1;
    if (!buf || rank >= blocks) return;
    if (threadIdx.x == 0) atomicMin(&span->first, global_ns());
    const size_t stride = size_t(blocks) * kThreads;
    float acc = 0;
    for (size_t i = size_t(rank) * kThreads + threadIdx.x; i < n; i += kUnroll * stride) {
        if (op == 0) {
            float4 v[kUnroll];
            for (int k = 0; k < kUnroll; ++k) v[k] = i + k * stride < n ? load_l2_v4(buf + i + k * stride) : float4{};
            for (int k = 0; k < kUnroll; ++k) acc += v[k].x + v[k].y + v[k].z + v[k].w;
        } else {
            for (int k = 0; k < kUnroll; ++k)
                if (i + k * stride < n) buf[i + k * stride] = make_float4(float(i), 1.f, 2.f, 3.f);
        }
    }
    if (acc == 12345.f) *sink = acc;  // never: the loads' data is back before the end is read
    __threadfence();                  // the stores are done
    __syncthreads();
    if (threadIdx.x == 0) atomicMax(&span->last, global_ns());
}

struct Gpu {
    unsigned sms = 0;
    unsigned char* side = nullptr;  // per SM: 0, 1, or 2 (unclassified: its blocks exit)
    unsigned* rank_of = nullptr;  // per SM: its index among its side's SMs
    unsigned* per_sm = nullptr;   // per SM: blocks started
    unsigned per_side[2] = {0, 0};  // working blocks a side
    Span* span = nullptr;
    float* sink = nullptr;
    unsigned char* scrub = nullptr;
    float4 *a = nullptr, *b = nullptr;
};

constexpr size_t kScrub = size_t(256) << 20;
constexpr size_t kMaxBytes = size_t(16) << 20;

// One pass of `stream` over `bytes` of buf0 (side 0) and buf1 (side 1); a null buffer leaves its side idle.
static float run_stream(const Gpu& g, float4* buf0, float4* buf1, size_t bytes, int op, Span* out) {
    HIP_CHECK(hipMemset(g.per_sm, 0, g.sms * sizeof(unsigned)));
    const Span init = {~0ull, 0ull};
    HIP_CHECK(hipMemcpy(g.span, &init, sizeof(Span), hipMemcpyHostToDevice));
    hipEvent_t e0, e1;
    HIP_CHECK(hipEventCreate(&e0));
    HIP_CHECK(hipEventCreate(&e1));
    HIP_CHECK(hipEventRecord(e0, 0));
    hipLaunchKernelGGL(stream, dim3(kBlocksPerSm * g.sms), dim3(kThreads), 0, 0, buf0, buf1, unsigned(bytes / sizeof(float4)),
                       g.side, g.rank_of, g.per_side[0], g.per_side[1], g.per_sm, op, g.span, g.sink);
    HIP_CHECK(hipEventRecord(e1, 0));
    HIP_CHECK(hipEventSynchronize(e1));
    HIP_CHECK(hipGetLastError());
    float ms = 0;
    HIP_CHECK(hipEventElapsedTime(&ms, e0, e1));
    HIP_CHECK(hipEventDestroy(e0));
    HIP_CHECK(hipEventDestroy(e1));
    if (out) HIP_CHECK(hipMemcpy(out, g.span, sizeof(Span), hipMemcpyDeviceToHost));
    return ms;
}

// The variant `name` at `bytes`: the L2 emptied, the warm-up passes, then the timed pass.
static void variant(const Gpu& g, const char* name, size_t bytes, int launch) {
    const std::string v = name;
    // The L2 emptied of the buffers, and left clean: the memset's dirty lines are written back while both
    // sides read the scrub buffer, not while a timed pass evicts them.
    HIP_CHECK(hipMemset(g.scrub, launch + 1, kScrub));
    float4* scrub = reinterpret_cast<float4*>(g.scrub);
    run_stream(g, scrub, scrub, kScrub, 0, nullptr);
    float4 *t0 = nullptr, *t1 = nullptr;
    int op = 0;
    if (v == "near_0" || v == "far_1") run_stream(g, g.a, nullptr, bytes, 0, nullptr);
    if (v == "near_1" || v == "far_0") run_stream(g, nullptr, g.a, bytes, 0, nullptr);
    if (v == "same" || v == "swap") {
        run_stream(g, g.a, nullptr, bytes, 0, nullptr);
        run_stream(g, nullptr, g.b, bytes, 0, nullptr);
    }
    if (v == "near_0" || v == "far_0" || v == "cold_0" || v == "write_0") t0 = g.a;
    if (v == "near_1" || v == "far_1" || v == "cold_1" || v == "write_1") t1 = g.a;
    if (v == "same") t0 = g.a, t1 = g.b;
    if (v == "swap") t0 = g.b, t1 = g.a;
    if (v == "write_0" || v == "write_1") op = 1;
    Span sp{};
    const float ms = run_stream(g, t0, t1, bytes, op, &sp);
    std::printf("FABRIC %s %zu %d %llu %.6f\n", name, bytes, launch, sp.last - sp.first, double(ms));
}

// Each SM's side from its far hits among its own lines of a region SM 0 read.
static void classify(Gpu& g) {
    unsigned *region = nullptr, *claimed = nullptr, *far = nullptr, *sink = nullptr;
    const unsigned lines = g.sms * kProbeLines;
    HIP_CHECK(hipMalloc(&region, size_t(lines) * kWords * sizeof(unsigned)));
    HIP_CHECK(hipMemset(region, 0, size_t(lines) * kWords * sizeof(unsigned)));
    HIP_CHECK(hipMalloc(&claimed, (g.sms + 1) * sizeof(unsigned)));
    HIP_CHECK(hipMalloc(&far, g.sms * sizeof(unsigned)));
    HIP_CHECK(hipMalloc(&sink, sizeof(unsigned)));
    HIP_CHECK(hipMemset(claimed, 0, (g.sms + 1) * sizeof(unsigned)));
    HIP_CHECK(hipMemset(far, 0xff, g.sms * sizeof(unsigned)));
    HIP_CHECK(hipMemset(g.scrub, 0, kScrub));
    hipLaunchKernelGGL(warm_on_sm0, dim3(4 * g.sms), dim3(kThreads), 0, 0, region, lines, claimed + g.sms, sink);
    HIP_CHECK(hipDeviceSynchronize());
    hipLaunchKernelGGL(probe_sides, dim3(8 * g.sms), dim3(32), 0, 0, region, claimed, far, 0u);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    std::vector<unsigned> f(g.sms);
    HIP_CHECK(hipMemcpy(f.data(), far, g.sms * sizeof(unsigned), hipMemcpyDeviceToHost));
    std::vector<unsigned char> side(g.sms, 2);
    std::vector<unsigned> rank(g.sms, 0);
    unsigned count[3] = {0, 0, 0};
    for (unsigned sm = 0; sm < g.sms; ++sm) {
        if (f[sm] <= kProbeLines / 8) side[sm] = 0;
        else if (f[sm] >= kProbeLines / 4 && f[sm] <= 3 * kProbeLines / 4) side[sm] = 1;
        rank[sm] = count[side[sm]]++;
        std::printf("SIDE %u %u\n", sm, f[sm]);
    }
    std::printf("SIDES %u %u %u\n", count[0], count[1], count[2]);
    g.per_side[0] = count[0] * kBlocksPerSm;
    g.per_side[1] = count[1] * kBlocksPerSm;
    HIP_CHECK(hipMemcpy(g.side, side.data(), g.sms, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(g.rank_of, rank.data(), g.sms * sizeof(unsigned), hipMemcpyHostToDevice));
    HIP_CHECK(hipFree(region));
    HIP_CHECK(hipFree(claimed));
    HIP_CHECK(hipFree(far));
    HIP_CHECK(hipFree(sink));
}

int main(int argc, char** argv) {
    const int launches = validation::once(argc, argv) ? 1 : kLaunches;  // --once: for the profiler
    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
    Gpu g;
    g.sms = unsigned(prop.multiProcessorCount);
    HIP_CHECK(hipMalloc(&g.side, g.sms));
    HIP_CHECK(hipMalloc(&g.rank_of, g.sms * sizeof(unsigned)));
    HIP_CHECK(hipMalloc(&g.per_sm, g.sms * sizeof(unsigned)));
    HIP_CHECK(hipMalloc(&g.span, sizeof(Span)));
    HIP_CHECK(hipMalloc(&g.sink, sizeof(float)));
    HIP_CHECK(hipMalloc(&g.scrub, kScrub));
    HIP_CHECK(hipMalloc(&g.a, kMaxBytes));
    HIP_CHECK(hipMalloc(&g.b, kMaxBytes));
    HIP_CHECK(hipMemset(g.a, 0, kMaxBytes));
    HIP_CHECK(hipMemset(g.b, 0, kMaxBytes));
    classify(g);
    const char* variants[] = {"near_0", "far_0", "near_1", "far_1", "same", "swap", "cold_0", "cold_1", "write_0", "write_1"};
    for (size_t bytes : {size_t(8) << 20, size_t(16) << 20})
        for (const char* v : variants)
            for (int launch = 0; launch < launches; ++launch) variant(g, v, bytes, launch);
    HIP_CHECK(hipFree(g.side));
    HIP_CHECK(hipFree(g.rank_of));
    HIP_CHECK(hipFree(g.per_sm));
    HIP_CHECK(hipFree(g.span));
    HIP_CHECK(hipFree(g.sink));
    HIP_CHECK(hipFree(g.scrub));
    HIP_CHECK(hipFree(g.a));
    HIP_CHECK(hipFree(g.b));
    return 0;
}
