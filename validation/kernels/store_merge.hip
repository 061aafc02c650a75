// When does an SM merge the parts of a sector that several warps store (results/h200-scatterstores,
// spread_D: 1.17 L2 write sectors a sector with the 8 warps together, 3.47 at 100 cycles apart, 6.09 at
// 300, 8 from 1,000 on)? Two rules fit that: parts merge while an earlier part still waits to leave the SM
// (a queue at its port, ~2.2 cycles a request: the wait grows with the SM's backlog), or within a fixed
// time of the first part (a write-combining window, whatever the backlog). A naive transpose's stores
// (none merged on the H200) sit between the two. Each variant: one block of 32 x 8 threads an SM (132
// blocks; the GPU spreads them, results/h200-blockplacement), 16 rounds; in each round, after a barrier,
// warp y first issues B scatter stores (a word in each of 32 lines of its own, 32 requests each: the
// backlog), waits y x D cycles, then stores word y of each of the round's 32 sectors (8 lines), as
// spread_D does.
//   quiet_D (B = 0): only the 64 requests of the round queue at the SM (~140 cycles). A queue rule merges
//     nothing from D ~ 20 on; a window of ~100-300 cycles still merges pairs at D = 100.
//   backlog_D (B = 4): 1,024 requests queue first (~2,200 cycles): a queue rule merges all 8 parts up to
//     D ~ 300 (the last part joins before the first leaves); a window rule as quiet_D.
// D = 0, 50, 100, 200, 400. Read lts__t_requests_srcunit_tex_op_write less the backlog's 132 x 8 x B x
// 32 x 16 requests: 132 x 8 x 16 = 16,896 lines, 1 request a line merged, 8 not.
#include "../common/harness.h"

constexpr int kRounds = 16;
constexpr int kBacklogLines = 1 << 16;  // 8 MiB of lines for the backlog's scatter, reused round after round

__global__ void merge(unsigned* out, unsigned* backlog, long long delay, int stores) {
    const unsigned y = threadIdx.y, lane = threadIdx.x;
    const long long warp = blockIdx.x * 8ll + y;
#pragma unroll 1
    for (int r = 0; r < kRounds; ++r) {
        __syncthreads();
#pragma unroll 1
        for (int k = 0; k < stores; ++k) {
            const long long line = ((r * stores + k) * (long long)gridDim.x * 8 * 32 + warp * 32 + lane) % kBacklogLines;
            backlog[line * 32] = 1u;
        }
        if (delay) {
            const long long start = clock64(), wait = delay * y;
            while (clock64() - start < wait) {
            }
        }
        const long long sector = (r * (long long)gridDim.x + blockIdx.x) * 32 + lane;
        out[sector * 8 + y] = 1u;
    }
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv);
    const unsigned blocks = 132;
    const long long out_bytes = (long long)kRounds * blocks * 32 * 32;
    unsigned *out, *backlog;
    HIP_CHECK(hipMalloc(&out, out_bytes));
    HIP_CHECK(hipMalloc(&backlog, (long long)kBacklogLines * 128));
    HIP_CHECK(hipMemset(out, 0, out_bytes));
    for (int stores : {0, 4}) {
        for (long long d : {0ll, 50ll, 100ll, 200ll, 400ll}) {
            char name[32];
            std::snprintf(name, sizeof name, "%s_%lld", stores ? "backlog" : "quiet", d);
            validation::measure(single, "store_merge", name, d, double(out_bytes), [&] {
                hipLaunchKernelGGL(merge, dim3(blocks), dim3(32, 8), 0, 0, out, backlog, d, stores);
            });
        }
    }
    HIP_CHECK(hipFree(out));
    HIP_CHECK(hipFree(backlog));
    return 0;
}
