// Stores that spread one warp instruction over many lines (a naive transpose's, a scatter's): what does
// each line request cost, and where; and when do the L1 and the L2 merge or fetch the parts of a sector.
//
// measured_*: blocks of 1,024 threads, one an SM (the GPU spreads them, results/h200-blockplacement), each
// warp 32 store instructions of 128 bytes (a word a lane) into lines already in the L2: `prep` writes the
// 8 MiB buffer whole just before (profile with --cache-control none -k regex:measured), so no store leaves
// a sector the L2 must fetch. An instruction touches L lines, 32 / L lanes on consecutive words of each:
//   lines_L_smS: L = 1, 4, 8, 32 on S = 132 SMs; L = 32 and 1 also on 66 and 33 SMs;
//   red_32_sm132: the same 32 lines with a reduction (atomicAdd, no return: RED), the shape of
//                 results/h200-atomics lanes_135168, where a one-lane request cost the SM ~2.75 cycles.
// spread_D: a fresh 4 MiB (caches flushed: the profiler's default), blocks of 32 x 8 threads, warp y storing
// word y of each of 32 sectors 32 bytes apart (partial_writes's across_warps: the block completes its 32
// sectors), warp y first waiting y x D cycles, D = 0, 100, 300, 1000, 2000.
// What it decides (the model: configs/h200.ini, docs/VALIDATION.md "The test set"):
// - lines_32 against red_32 and lines_1: whether a one-word store request costs the SM what a reduction's
//   does (~2.75 cycles, noc.cu_store_request_cycles): then lines_32_sm132 takes about 3,400 + 32 x 32 x 32
//   x 2.75 = 93,500 cycles, where the model without the floor takes ~67,000 (the channels' links).
// - lines_32 on 132, 66, 33 SMs: a cost per SM leaves the cycles the same (each SM's work is); a cost
//   per L2 slice halves them with half the SMs.
// - lines_4, lines_8: whether the cost is per request, per sector or per partial sector.
// - spread_D, lts__t_sectors_srcunit_tex_op_write: ~1 a sector (as across_warps: 13.2 M for 8.4 M
//   sectors, 1.5 per sector with the far side's) means the 8 warps' parts merge before the L2, 8 that
//   they do not: the D where it turns is the merging window (the model merges none).
// - spread_D, dram__bytes_read: sectors completed over 7 x D cycles, fetched or not. With
//   l2.partial_fetch_delay 2000 counted from the first part (l2.partial_fetch_from = first) D = 300, 1000,
//   2000 read ~4 MB; counted from the latest (= latest) only D >= 2000 does.
#include "../common/harness.h"

constexpr int kInstr = 32;        // store instructions a warp (measured_*)
constexpr long long kLines = 65536;  // 8 MiB of 128-byte lines

__global__ void prep(float4* buf, long long n) {
    const long long step = (long long)gridDim.x * blockDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += step)
        buf[i] = make_float4(1.f, 2.f, 3.f, 4.f);
}

// Instruction k of warp w of block b: lines first .. first + L - 1, first = (k x warps + b x 32 + w) x L
// (mod the buffer), so each instruction's lines are new to its SM and the grid sweeps the buffer.
template <int L, bool kRed>
__global__ void measured(unsigned* buf) {
    const unsigned lane = threadIdx.x % 32, per_line = 32 / L;
    const long long warps = (long long)gridDim.x * 32, w = blockIdx.x * 32ll + threadIdx.x / 32;
#pragma unroll 1
    for (int k = 0; k < kInstr; ++k) {
        const long long first = ((k * warps + w) * L) % kLines;
        unsigned* p = buf + (first + lane / per_line) * 32 + lane % per_line;
        if (kRed) atomicAdd(p, 1u);
        else *p = unsigned(k);
    }
}

__global__ void spread(unsigned* out, long long delay) {
    if (delay) {
        const long long start = clock64(), wait = delay * threadIdx.y;
        while (clock64() - start < wait) {
        }
    }
    const long long sector = blockIdx.x * 32ll + threadIdx.x;
    out[sector * 8 + threadIdx.y] = 1u;
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv);
    unsigned *buf, *fresh;
    const long long fresh_bytes = 4ll << 20;
    HIP_CHECK(hipMalloc(&buf, kLines * 128));
    HIP_CHECK(hipMalloc(&fresh, fresh_bytes));
    HIP_CHECK(hipMemset(buf, 0, kLines * 128));
    HIP_CHECK(hipMemset(fresh, 0, fresh_bytes));
    auto run = [&](const char* name, unsigned sms, void (*kernel)(unsigned*)) {
        const double bytes = double(sms) * 1024 * kInstr * 4;
        validation::measure(single, "scatter_stores", name, sms, bytes, [&] {
            hipLaunchKernelGGL(prep, dim3(264), dim3(256), 0, 0, reinterpret_cast<float4*>(buf), kLines * 8);
            hipLaunchKernelGGL(kernel, dim3(sms), dim3(1024), 0, 0, buf);
        });
    };
    run("lines_1_sm132", 132, measured<1, false>);
    run("lines_4_sm132", 132, measured<4, false>);
    run("lines_8_sm132", 132, measured<8, false>);
    run("lines_32_sm132", 132, measured<32, false>);
    run("lines_32_sm66", 66, measured<32, false>);
    run("lines_32_sm33", 33, measured<32, false>);
    run("lines_1_sm66", 66, measured<1, false>);
    run("lines_1_sm33", 33, measured<1, false>);
    run("red_32_sm132", 132, measured<32, true>);
    for (long long d : {0ll, 100ll, 300ll, 1000ll, 2000ll}) {
        char name[32];
        std::snprintf(name, sizeof name, "spread_%lld", d);
        validation::measure(single, "scatter_stores", name, d, double(fresh_bytes), [&] {
            hipLaunchKernelGGL(spread, dim3(unsigned(fresh_bytes / 4 / 256)), dim3(32, 8), 0, 0, fresh, d);
        });
    }
    HIP_CHECK(hipFree(buf));
    HIP_CHECK(hipFree(fresh));
    return 0;
}
