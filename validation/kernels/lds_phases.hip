// Do blocks that share an SM's shared-memory pipe stay in step (issue 25)? lds_fills' regs_b8 (8 blocks of
// 8 warps an SM, 48 rounds of 4 stores from registers, a barrier, 16 conflict-free reads, a barrier) takes
// about 1,560 cycles a round on the H200 where its 1,280 shared wavefronts an SM would take 1,280; the
// model overlaps one block's stores with the others' reads and runs 15 % fast, its blocks' rounds spread
// evenly over the round. Here the same rounds record, in each block, the SM's cycle at each round's end
// (warp 0, after the second barrier), its SM and its rank among the blocks that reached that SM, so that
// the spread of the blocks' round ends on an SM can be read against the round's length. Variants:
// - b8: regs_b8 (1,056 blocks); b4: 4 blocks an SM; b2: 2 (not bound by the pipe);
// - b8_skew: b8 with the odd-ranked blocks first waiting `kSkew` cycles, half a round: do late blocks
//   catch up, stay behind, or stay apart?
// - b8_nosync: no barriers (each warp's rounds run free; warp 0's ends are recorded);
// - b8_waves: 8 waves of blocks (8,448), 4 rounds each: how blocks launched into freed slots take their
//   turn;
// - bars_b8, bars_b1: 8 back-to-back barriers a round and nothing else (lds_fills' regs_b8_reads0, whose
//   stores compiled away: 17,207 cycles for 96 barriers where the model takes 13,960), 8 and 1 blocks an SM.
// Usage: lds_phases OUT_DIR: writes OUT_DIR/phases.csv (variant, run, block, sm, rank, start, then the
// cycles from the block's start to each round's end) and prints one RESULT line a variant.
#include <string>

#include "../common/device_timers.h"
#include "../common/harness.h"

constexpr int kTile = 1024;  // floats: 4 KiB, as lds_fills
constexpr int kRounds = 48;
constexpr long long kSkew = 780;  // cycles: half of regs_b8's round on the H200

struct Rec {
    long long start;
    unsigned sm, rank;
    unsigned ends[kRounds];  // cycles from start
};

// The block's record, once its rounds are done: its start, SM, rank and the ends of its `rounds` rounds.
__device__ void record(Rec* rec, long long c0, unsigned rank, const unsigned* ends, int rounds) {
    const int t = threadIdx.x;
    __syncthreads();
    if (t < kRounds) rec[blockIdx.x].ends[t] = t < rounds ? ends[t] : 0;
    if (t == 0) {
        rec[blockIdx.x].start = c0;
        rec[blockIdx.x].sm = cu_id();
        rec[blockIdx.x].rank = rank;
    }
}

template <bool SYNC, bool SKEW>
__global__ void phases(float* out, Rec* rec, unsigned* arrivals, int rounds) {
    __shared__ float tile[kTile];
    __shared__ unsigned rank;
    __shared__ unsigned ends[kRounds];
    const int t = threadIdx.x;
    const long long c0 = cu_cycles();
    if (t == 0) rank = atomicAdd(&arrivals[cu_id()], 1u);
    __syncthreads();
    if (SKEW && (rank & 1))
        while (cu_cycles() - c0 < kSkew) {
        }
    float acc = 0;
    for (int r = 0; r < rounds; ++r) {
        for (int i = t; i < kTile; i += blockDim.x) tile[i] = float(i + r);
        if (SYNC) __syncthreads();
        volatile float* v = tile;
        for (int it = 0; it < 16; ++it) acc += v[(t + 32 * it) & (kTile - 1)];
        if (SYNC) __syncthreads();
        if (t == 0) ends[r] = unsigned(cu_cycles() - c0);
    }
    out[size_t(blockIdx.x) * blockDim.x + t] = acc;
    record(rec, c0, rank, ends, rounds);
}

// 8 barriers a round, back to back, and the round's end (the first 12 rounds: 96 barriers, as reads0).
__global__ void bars(float* out, Rec* rec, unsigned* arrivals) {
    __shared__ unsigned rank;
    __shared__ unsigned ends[kRounds];
    const int t = threadIdx.x;
    const long long c0 = cu_cycles();
    if (t == 0) rank = atomicAdd(&arrivals[cu_id()], 1u);
    __syncthreads();
    for (int r = 0; r < kRounds / 4; ++r) {
#pragma unroll
        for (int k = 0; k < 8; ++k) __syncthreads();
        if (t == 0) ends[r] = unsigned(cu_cycles() - c0);
    }
    out[size_t(blockIdx.x) * blockDim.x + t] = 0.f;
    record(rec, c0, rank, ends, kRounds / 4);
}

template <bool SYNC, bool SKEW, bool BARS = false>
void run(FILE* f, const char* name, int blocks, float* out, Rec* rec, unsigned* arrivals, std::vector<Rec>& h,
         int rounds = kRounds) {
    hipEvent_t a, b;
    HIP_CHECK(hipEventCreate(&a));
    HIP_CHECK(hipEventCreate(&b));
    std::vector<float> ms;
    for (int run = 0; run < 4; ++run) {  // run 0 warms up and is not written
        HIP_CHECK(hipMemset(arrivals, 0, 1024 * sizeof(unsigned)));
        HIP_CHECK(hipDeviceSynchronize());
        HIP_CHECK(hipEventRecord(a, 0));
        if (BARS) hipLaunchKernelGGL(bars, dim3(blocks), dim3(256), 0, 0, out, rec, arrivals);
        else hipLaunchKernelGGL((phases<SYNC, SKEW>), dim3(blocks), dim3(256), 0, 0, out, rec, arrivals, rounds);
        HIP_CHECK(hipEventRecord(b, 0));
        HIP_CHECK(hipEventSynchronize(b));
        HIP_CHECK(hipGetLastError());
        float m = 0;
        HIP_CHECK(hipEventElapsedTime(&m, a, b));
        if (run == 0) continue;
        ms.push_back(m);
        HIP_CHECK(hipMemcpy(h.data(), rec, sizeof(Rec) * blocks, hipMemcpyDeviceToHost));
        for (int k = 0; k < blocks; ++k) {
            std::fprintf(f, "%s,%d,%d,%u,%u,%lld", name, run, k, h[k].sm, h[k].rank, h[k].start);
            for (int r = 0; r < kRounds; ++r) std::fprintf(f, ",%u", h[k].ends[r]);
            std::fprintf(f, "\n");
        }
    }
    std::sort(ms.begin(), ms.end());
    std::printf("RESULT lds_phases %s %d %.6f 0\n", name, blocks, ms[ms.size() / 2]);
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: lds_phases OUT_DIR\n");
        return 2;
    }
    const std::string path = std::string(argv[1]) + "/phases.csv";
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f) {
        std::fprintf(stderr, "cannot write %s\n", path.c_str());
        return 1;
    }
    std::fprintf(f, "variant,run,block,sm,rank,start");
    for (int r = 0; r < kRounds; ++r) std::fprintf(f, ",end%d", r);
    std::fprintf(f, "\n");
    const int sms = 132, most = sms * 8 * 8;
    float* out = nullptr;
    Rec* rec = nullptr;
    unsigned* arrivals = nullptr;
    HIP_CHECK(hipMalloc(&out, size_t(most) * 256 * sizeof(float)));
    HIP_CHECK(hipMalloc(&rec, size_t(most) * sizeof(Rec)));
    HIP_CHECK(hipMalloc(&arrivals, 1024 * sizeof(unsigned)));
    std::vector<Rec> h(most);
    const int wave = sms * 8;  // 8 blocks an SM: one wave
    run<true, false>(f, "b8", wave, out, rec, arrivals, h);
    run<true, true>(f, "b8_skew", wave, out, rec, arrivals, h);
    run<true, false>(f, "b4", sms * 4, out, rec, arrivals, h);
    run<true, false>(f, "b2", sms * 2, out, rec, arrivals, h);
    run<false, false>(f, "b8_nosync", wave, out, rec, arrivals, h);
    run<true, false>(f, "b8_waves", most, out, rec, arrivals, h, 4);
    run<true, false, true>(f, "bars_b8", wave, out, rec, arrivals, h);
    run<true, false, true>(f, "bars_b1", sms, out, rec, arrivals, h);
    std::fclose(f);
    return 0;
}
