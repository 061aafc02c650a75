// What the first load to a page costs. One thread chases 8 dependent loads,
// each on its own never-read 128-byte line (so each is a DRAM miss), and
// times every load with clock64. Every launch uses lines no launch read
// before, in one of three placements:
//   fresh:  all 8 in one 2 MiB page that no launch has touched;
//   spread: each in a page of its own that no launch has touched;
//   warm:   all 8 in the page the launch before it read (fresh lines).
// Then the l1_misses shape that came out uneven (one warp, 32 lanes x 2
// lines, 64 misses issued together), timed from the first load's issue to
// the last answer, with and without lane 0 first loading (and waiting for)
// one other line of the same page:
//   burst_cold: 64 lines in a page no launch has touched;
//   burst_warm: the same after the warming load.
// Then who shares a translation (share) and how many 32 MiB regions stay
// translated (reach). With the argument `ncu`, only chases on one page, for
// running under Nsight Compute: do its launches find translations cold?
// No memset: hipMalloc maps the memory, and nothing but these launches reads it.
// Prints per launch: TOUCH <placement> <launch> <sm> <cycles of load 0..7>
//               and: BURST <variant> <launch> <sm> <cycles>
#include "../common/device_timers.h"
#include "../common/harness.h"

constexpr int kLoads = 8;
constexpr long long kPage = 2ll << 20;  // bytes
constexpr long long kLine = 128;
constexpr long long kRegion = 32ll << 20;  // the first run: the first load to each 32 MiB costs more

// addr[k]: the byte offset of load k. zero is 0 at run time (the compiler
// cannot know): it makes each address depend on the load before.
__global__ void touch(const unsigned char* base, const long long* addr, unsigned long long zero,
                      unsigned long long* out) {
    // The offsets first, into registers, so that no timed interval waits for them.
    long long a[kLoads];
#pragma unroll
    for (int k = 0; k < kLoads; ++k) a[k] = addr[k];
    unsigned long long dep = 0;
#pragma unroll
    for (int k = 0; k < kLoads; ++k) a[k] += (long long)(a[kLoads - 1] & (long long)zero);  // all arrived
    long long before = cu_cycles();
#pragma unroll
    for (int k = 0; k < kLoads; ++k) {
        dep = *(const unsigned long long*)(base + a[k] + (dep & zero));
        // A store of the loaded value issues only once the value is back; the
        // timer ("memory") is read after it.
        out[kLoads + 2 + k] = dep & zero;
        const long long after = cu_cycles();
        out[k] = (unsigned long long)(after - before);
        before = after;
    }
    out[kLoads] = cu_id();
    out[kLoads + 1] = dep;
}

// One warp: lane l loads lines first + 2l and first + 2l + 1 (64 lines).
// With warm, lane 0 first loads line first + 64 of the same page and waits.
__global__ void burst(const unsigned char* base, long long first, int warm, unsigned long long zero,
                      unsigned long long* out) {
    const int lane = threadIdx.x;
    unsigned long long dep = 0;
    if (warm && lane == 0) dep = *(const unsigned long long*)(base + first + 64 * kLine);
    __shared__ unsigned long long shared_dep;
    if (lane == 0) shared_dep = dep;
    __syncthreads();
    dep = shared_dep;
    const unsigned char* p = base + first + (dep & zero) + 2ll * lane * kLine;
    __syncthreads();
    const long long c0 = cu_cycles();
    const unsigned long long a = *(const unsigned long long*)p;
    const unsigned long long b = *(const unsigned long long*)(p + kLine);
    const unsigned long long s = a + b;
    __syncthreads();  // as in l1_misses: the block (one warp) has its data
    const long long c1 = cu_cycles();
    if (lane == 0) {
        out[0] = (unsigned long long)(c1 - c0);
        out[1] = cu_id();
    }
    if (s == 12345) out[2] = s;
}

// Who shares what a first touch fills: block 0 loads a line of region R at
// once; every other block first spins for `wait` cycles, then loads a line
// of its own: even blocks in R (another 2 MiB page of it), odd blocks in a
// region of their own that nothing touched. out[2b] = cycles, out[2b+1] = CU.
__global__ void share(const unsigned char* base, long long region, long long wait, unsigned long long zero,
                      unsigned long long* out) {
    const int b = blockIdx.x;
    if (b) {
        const long long t = cu_cycles();
        while (cu_cycles() - t < wait) {
        }
    }
    const long long r = (b == 0 || b % 2 == 0) ? region : region + b;
    const long long off = r * kRegion + (long long)(b % 16) * kPage + (long long)(b / 16) * kLine;
    const long long before = cu_cycles();
    const unsigned long long v = *(const unsigned long long*)(base + off);
    out[2 * gridDim.x + b] = v & zero;
    const long long after = cu_cycles();
    out[2 * b] = (unsigned long long)(after - before);
    out[2 * b + 1] = cu_id();
}

// How many regions stay translated: one thread touches regions first ..
// first + n - 1 (one line each), then times a load of a fresh line in each
// of the first four again. out[0..3] = their cycles.
__global__ void reach(const unsigned char* base, long long first, int n, unsigned long long zero,
                      unsigned long long* out) {
    unsigned long long dep = 0;
    for (int i = 0; i < n; ++i) dep = *(const unsigned long long*)(base + (first + i) * kRegion + (dep & zero));
    for (int i = 0; i < 4; ++i) {
        const long long before = cu_cycles();
        dep = *(const unsigned long long*)(base + (first + i) * kRegion + kPage + (dep & zero));
        out[8 + i] = dep & zero;
        const long long after = cu_cycles();
        out[i] = (unsigned long long)(after - before);
    }
}

int main(int argc, char** argv) {
    // 18 GiB (576 regions): 0-8 for the chases and bursts, 16-291 for share, 300-551 for reach, 560 for ncu.
    const long long bytes = 18ll << 30;
    unsigned char* base;
    long long* addr;
    unsigned long long* out;
    HIP_CHECK(hipMalloc(&base, bytes));
    HIP_CHECK(hipMalloc(&addr, kLoads * sizeof(long long)));
    HIP_CHECK(hipMalloc(&out, 1024 * sizeof(unsigned long long)));
    // Lines of one page are 16 KiB apart (different DRAM rows and channels).
    auto in_page = [](long long page, int k) { return page * kPage + (long long)k * (16 << 10); };
    auto chase = [&](const long long* h, const char* placement, int l) {
        HIP_CHECK(hipMemcpy(addr, h, kLoads * sizeof(long long), hipMemcpyHostToDevice));
        hipLaunchKernelGGL(touch, dim3(1), dim3(1), 0, 0, base, addr, 0ull, out);
        HIP_CHECK(hipGetLastError());
        unsigned long long r[kLoads + 2];
        HIP_CHECK(hipMemcpy(r, out, sizeof r, hipMemcpyDeviceToHost));
        std::printf("TOUCH %s %d %llu", placement, l, r[kLoads]);
        for (int k = 0; k < kLoads; ++k) std::printf(" %llu", r[k]);
        std::printf("\n");
    };
    const int launches = 12;
    if (argc > 1 && !std::strcmp(argv[1], "ncu")) {
        // Under the profiler (it empties the caches before each launch): the
        // same 2 MiB page each launch, fresh lines. Launch 0 touches region 560 first.
        for (int l = 0; l < launches; ++l) {
            long long h[kLoads];
            for (int k = 0; k < kLoads; ++k) h[k] = 560 * kRegion + in_page(0, k) + (long long)l * kLine;
            chase(h, "ncu", l);
        }
        return 0;
    }
    long long next_page = 1;  // pages no launch has touched yet
    for (const char* placement : {"fresh", "spread", "warm"}) {
        long long warm_page = next_page++;
        int warm_round = 1;  // the line group of warm_page the next warm launch reads
        for (int l = 0; l < launches; ++l) {
            long long h[kLoads];
            if (!std::strcmp(placement, "fresh")) {
                const long long page = next_page++;
                for (int k = 0; k < kLoads; ++k) h[k] = in_page(page, k);
            } else if (!std::strcmp(placement, "spread")) {
                for (int k = 0; k < kLoads; ++k) h[k] = in_page(next_page++, k);
            } else {
                // The first launch warms the page; then fresh lines of it, 128 B on from the last group.
                for (int k = 0; k < kLoads; ++k) h[k] = in_page(warm_page, k) + (long long)warm_round * kLine;
                ++warm_round;
            }
            chase(h, placement, l);
        }
    }
    for (int warm : {0, 1}) {
        for (int l = 0; l < launches; ++l) {
            const long long first = next_page++ * kPage;
            hipLaunchKernelGGL(burst, dim3(1), dim3(32), 0, 0, base, first, warm, 0ull, out);
            HIP_CHECK(hipGetLastError());
            unsigned long long r[2];
            HIP_CHECK(hipMemcpy(r, out, sizeof r, hipMemcpyDeviceToHost));
            std::printf("BURST %s %d %llu %llu\n", warm ? "burst_warm" : "burst_cold", l, r[1], r[0]);
        }
    }
    // SHARE <run> <block> <cu> <cycles> <same region as block 0: 1, a fresh one: 0>
    const int blocks = 132;
    for (int run = 0; run < 2; ++run) {
        const long long region = 16 + run * 144;
        hipLaunchKernelGGL(share, dim3(blocks), dim3(1), 0, 0, base, region, 20000ll, 0ull, out);
        HIP_CHECK(hipGetLastError());
        std::vector<unsigned long long> r(2 * blocks);
        HIP_CHECK(hipMemcpy(r.data(), out, r.size() * sizeof r[0], hipMemcpyDeviceToHost));
        for (int b = 0; b < blocks; ++b)
            std::printf("SHARE %d %d %llu %llu %d\n", run, b, r[2 * b + 1], r[2 * b], b == 0 || b % 2 == 0);
    }
    // REACH <regions touched> <cycles of the 4 reloads>
    long long first = 300;
    for (int n : {4, 8, 16, 32, 64, 128}) {
        hipLaunchKernelGGL(reach, dim3(1), dim3(1), 0, 0, base, first, n, 0ull, out);
        HIP_CHECK(hipGetLastError());
        unsigned long long r[4];
        HIP_CHECK(hipMemcpy(r, out, sizeof r, hipMemcpyDeviceToHost));
        std::printf("REACH %d %llu %llu %llu %llu\n", n, r[0], r[1], r[2], r[3]);
        first += n;
    }
    HIP_CHECK(hipFree(base));
    HIP_CHECK(hipFree(addr));
    HIP_CHECK(hipFree(out));
    return 0;
}
