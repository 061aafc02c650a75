// Where the suite's spill kernel (shared_compute.hip: 96 private floats a
// thread, written in order, then read at (i * 7 + t) % 96; 264 blocks of 256
// threads, 2 a CU) spends its time, and why its local loads miss the L1 a
// quarter of the time on the H200 though its 192 KiB a CU fits the L1.
// Variants (same work; each warp's first lane records its CU and the cycles of
// its write phase and of its read phase, the read phase ending once its loads'
// data is back):
//   spill       the suite's kernel, with the records;
//   spill_sync  __syncthreads() between the phases;
//   spill_gap   __syncthreads() and 30,000 cycles of waiting between them, so
//               that every store has reached the L2 before the first load;
//   spill_read2 the read phase twice (the second reads lines the first left);
//   spill_l1max, spill_l1min: spill with the preferred shared-memory carveout
//               set to 0 % (the largest L1) and 100 % (the smallest): whether
//               the L1 a launch gets differs profiled and not;
//   spill_dyn10k, spill_dyn24k: spill with 10 or 24 KiB of dynamic shared
//               memory a block that it never touches (profiled on an H100 the
//               driver gave them 132 and 228 KiB carveouts);
//   spill_f48, spill_f64, spill_f80: spill with frames of 48, 64, 80 floats
//               (96 to 160 KiB a CU at two blocks a CU);
//   spill_global: the frames in a global buffer of the same layout, whose
//               loads the L1 caches as any global load: private memory or
//               any full L1.
// Prints the events' median time per variant (RESULT lines), then per variant
// PHASES <variant> <median write cycles> <median read cycles> <max read
// cycles> <median total> <max total> <median start ns> <max start ns> <first
// start to last end, ns> over its warps (starts from the first warp's), of
// the last launch, and CUREAD <variant> with each CU's longest read phase in
// hundreds of cycles. Profiled (--once, --repeat N) it prints them for the
// last profiled launch, so that a profiler's cycles can be set against its
// warps'. With --cold, each timed launch follows a read of 256 MiB that
// leaves the L2 clean and full of other lines, as a profiler's cache flush
// leaves it empty, instead of holding the last launch's private lines.
// --blocks N launches N blocks of 256 threads instead of 264 (132: one an SM,
// 96 KiB of private lines; 528: four, more than the L1 holds). --frames runs
// only spill, spill_f48 to spill_f80 and spill_global (for a capture).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <string>
#include <vector>

#include "../common/device_timers.h"
#include "../common/harness.h"

struct Phase {
    unsigned cu, write, read, total;
    unsigned long long start_ns, end_ns;  // the GPU-wide timer at the warp's first and last clock reads
};

// The read phase ends here (the caller's store of its sum needs every load's data); a warp's first lane
// records its phases from the clock reads s0/t0 (start), t1 (writes issued) and t2 (reads begin).
__device__ inline void record_phases(Phase* rec, int t, unsigned long long s0, long long t0, long long t1, long long t2) {
    const long long t3 = cu_cycles();
    const unsigned long long s3 = global_ns();
    if (threadIdx.x % 32 == 0)
        rec[t / 32] = Phase{cu_id(), unsigned(t1 - t0), unsigned(t3 - t2), unsigned(t3 - t0), s0, s3};
}

// kMode: 0 spill, 1 sync, 2 gap, 3 read twice, 4 to 7 as 0 (their carveouts differ); kFloats: the frame.
template <int kMode, int kFloats = 96>
__global__ void spill_phases(float* out, const float* in, int zero, Phase* rec) {
    float priv[kFloats];  // indexed at run time: lives in local (private) memory
    const unsigned long long s0 = global_ns();
    const long long t0 = cu_cycles();
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < kFloats; ++i) priv[i] = in[t] * float(i);
    const long long t1 = cu_cycles();
    if (kMode >= 1 && kMode <= 2) __syncthreads();
    if (kMode == 2)
        while (cu_cycles() - t1 < 30000) {
        }
    const long long t2 = cu_cycles();
    float acc = 0;
    for (int i = 0; i < kFloats; ++i) acc += priv[(i * 7 + t + zero) % kFloats];
    if (kMode == 3)
        for (int i = 0; i < kFloats; ++i) acc += priv[(i * 5 + t + zero) % kFloats];
    out[t] = acc;  // needs every load's data: the clock below reads after them
    record_phases(rec, t, s0, t0, t1, t2);
}

// spill_global: the same frame in a global buffer, word-interleaved as private memory is (element i of a
// warp's lane l at word 32 i + l of the warp's 96 lines), its loads cached in the L1 as global loads are.
__global__ void spill_global(float* out, const float* in, int zero, Phase* rec, float* frames) {
    const unsigned long long s0 = global_ns();
    const long long t0 = cu_cycles();
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float* frame = frames + size_t(t / 32) * 96 * 32 + t % 32;
    for (int i = 0; i < 96; ++i) frame[i * 32] = in[t] * float(i);
    const long long t1 = cu_cycles();
    const long long t2 = cu_cycles();
    float acc = 0;
    for (int i = 0; i < 96; ++i) acc += frame[((i * 7 + t + zero) % 96) * 32];
    out[t] = acc;
    record_phases(rec, t, s0, t0, t1, t2);
}

namespace {

unsigned median(std::vector<unsigned> v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

__global__ void scrub(float* sink, const float4* buf, size_t n) {
    float acc = 0;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        const float4 v = buf[i];
        acc += v.x + v.y + v.z + v.w;
    }
    if (acc == 1.0f) *sink = acc;  // never: keeps the loads
}

// The events' median over 21 launches, each after the scrub (not timed), as RESULT ..._cold.
template <typename Launch>
void measure_cold(const char* name, long long size, Launch launch) {
    const size_t n = (size_t(256) << 20) / sizeof(float4);
    float4* buf;
    float* sink;
    HIP_CHECK(hipMalloc(&buf, n * sizeof(float4)));
    HIP_CHECK(hipMalloc(&sink, sizeof(float)));
    HIP_CHECK(hipMemset(buf, 0, n * sizeof(float4)));
    const std::string variant = std::string(name) + "_cold";
    validation::measure(false, "spill_phases", variant.c_str(), size, 0, launch,
                        [&] { hipLaunchKernelGGL(scrub, dim3(1056), dim3(256), 0, 0, sink, buf, n); });
    HIP_CHECK(hipFree(buf));
    HIP_CHECK(hipFree(sink));
}

template <typename Launch>
void run_launch(bool single, bool cold, const char* name, Phase* d_rec, int blocks, Launch launch) {
    if (cold && !single) measure_cold(name, blocks * 256ll, launch);
    else validation::measure(single, "spill_phases", name, blocks * 256ll, 0, launch);
    const int warps = blocks * 8;
    std::vector<Phase> rec(warps);
    HIP_CHECK(hipMemcpy(rec.data(), d_rec, warps * sizeof(Phase), hipMemcpyDeviceToHost));
    std::vector<unsigned> w, r, tot, start;
    unsigned long long first = ~0ull, last = 0;
    for (const Phase& p : rec) first = std::min(first, p.start_ns), last = std::max(last, p.end_ns);
    for (const Phase& p : rec)
        w.push_back(p.write), r.push_back(p.read), tot.push_back(p.total), start.push_back(unsigned(p.start_ns - first));
    std::printf("PHASES %s %u %u %u %u %u %u %u %llu\n", name, median(w), median(r), *std::max_element(r.begin(), r.end()),
                median(tot), *std::max_element(tot.begin(), tot.end()), median(start),
                *std::max_element(start.begin(), start.end()), last - first);
    // Per CU (by id, those that ran warps): the longest read phase of its warps, in hundreds of cycles.
    unsigned top = 0;
    for (const Phase& p : rec) top = std::max(top, p.cu);
    std::vector<unsigned> cu_read(top + 1, 0);
    for (const Phase& p : rec) cu_read[p.cu] = std::max(cu_read[p.cu], p.read);
    std::printf("CUREAD %s", name);
    for (unsigned v : cu_read) std::printf(" %u", v / 100);
    std::printf("\n");
}

template <int kMode, int kFloats = 96>
void run(bool single, bool cold, const char* name, float* out, const float* in, Phase* d_rec, int blocks,
         unsigned shared = 0) {
    run_launch(single, cold, name, d_rec, blocks, [&] {
        hipLaunchKernelGGL((spill_phases<kMode, kFloats>), dim3(blocks), dim3(256), shared, 0, out, in, 0, d_rec);
    });
}

}  // namespace

int main(int argc, char** argv) {
    const bool single = validation::once(argc, argv), cold = validation::flag(argc, argv, "--cold");
    const bool frames_only = validation::flag(argc, argv, "--frames");  // spill, spill_f48-f80, spill_global
    // The suite's --small size, 264 (two blocks an SM on the H200 and the H100); --blocks N for others.
    int blocks = 264;
    for (int i = 1; i + 1 < argc; ++i)
        if (!std::strcmp(argv[i], "--blocks")) blocks = std::max(1, std::atoi(argv[i + 1]));
    float *in, *out;
    Phase* rec;
    HIP_CHECK(hipMalloc(&in, sizeof(float) * blocks * 256));
    HIP_CHECK(hipMalloc(&out, sizeof(float) * blocks * 256));
    HIP_CHECK(hipMalloc(&rec, sizeof(Phase) * blocks * 8));
    HIP_CHECK(hipMemset(in, 0, sizeof(float) * blocks * 256));
    run<0>(single, cold, "spill", out, in, rec, blocks);
    if (!frames_only) {
        run<1>(single, cold, "spill_sync", out, in, rec, blocks);
        run<2>(single, cold, "spill_gap", out, in, rec, blocks);
        run<3>(single, cold, "spill_read2", out, in, rec, blocks);
        HIP_CHECK(hipFuncSetAttribute(reinterpret_cast<const void*>(spill_phases<4>), hipFuncAttributePreferredSharedMemoryCarveout, 0));
        HIP_CHECK(hipFuncSetAttribute(reinterpret_cast<const void*>(spill_phases<5>), hipFuncAttributePreferredSharedMemoryCarveout, 100));
        run<4>(single, cold, "spill_l1max", out, in, rec, blocks);
        run<5>(single, cold, "spill_l1min", out, in, rec, blocks);
        run<6>(single, cold, "spill_dyn10k", out, in, rec, blocks, 10 << 10);
        run<7>(single, cold, "spill_dyn24k", out, in, rec, blocks, 24 << 10);
    }
    run<0, 48>(single, cold, "spill_f48", out, in, rec, blocks);
    run<0, 64>(single, cold, "spill_f64", out, in, rec, blocks);
    run<0, 80>(single, cold, "spill_f80", out, in, rec, blocks);
    float* frames;
    HIP_CHECK(hipMalloc(&frames, sizeof(float) * size_t(blocks) * 256 * 96));
    run_launch(single, cold, "spill_global", rec, blocks,
               [&] { hipLaunchKernelGGL(spill_global, dim3(blocks), dim3(256), 0, 0, out, in, 0, rec, frames); });
    HIP_CHECK(hipFree(frames));
    for (void* p : {(void*)in, (void*)out, (void*)rec}) HIP_CHECK(hipFree(p));
    return 0;
}
