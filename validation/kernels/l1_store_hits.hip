// Stores into lines the L1 holds: does the profiler count their sectors as hits, per sector or per line,
// and does a store leave its line in the L1 for the next store? 1,056 blocks of 256 threads (8 a SM), one
// 4-byte word a thread, 1 MiB a buffer; each variant on buffers nothing else touched before it.
//   load_store_same:   a thread loads its word, then stores it (an in-place update);
//   store_only:        a thread stores its word, nothing loaded;
//   load_store_other:  a thread loads its word, then stores to another buffer's word;
//   load_half_store:   lanes 0-15 of a warp load the first 64 bytes of its line, lanes 16-31 then store the
//                      other 64 (the line's tag present, its stored sectors never loaded);
//   store_store_warps: warp w of a block stores word w of each of 32 sectors (32 bytes apart), 8 warps on
//                      the same 32 sectors (a naive transpose's stores);
//   store_load_other: a thread stores its word, then (after a barrier) loads the word another warp of
//                      its block stored: do loads hit what stores left in the L1 (added after the first run)?
#include "../common/harness.h"

constexpr int kBlocks = 1056, kThreads = 256;
constexpr long long kWords = (long long)kBlocks * kThreads;

__global__ void load_store_same(unsigned* buf) {
    const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    buf[i] = buf[i] + 1u;
}

__global__ void store_only(unsigned* buf) {
    const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    buf[i] = unsigned(i);
}

__global__ void load_store_other(unsigned* out, const unsigned* in) {
    const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    out[i] = in[i] + 1u;
}

__global__ void load_half_store(unsigned* buf) {
    const long long warp = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    unsigned* line = buf + warp * 32;  // the warp's 128-byte line
    unsigned v = 0;
    if (lane < 16) v = line[lane];
    __threadfence_block();  // the load instruction before the store's
    if (lane >= 16) line[lane] = 1u;
    if (v == 0x12345u) line[0] = 0u;  // never (the buffer is zeroed): keeps the load
}

__global__ void store_store_warps(unsigned* buf) {
    const long long sector = blockIdx.x * 32ll + threadIdx.x % 32;
    buf[sector * 8 + threadIdx.x / 32] = 1u;
}

__global__ void store_load_other(unsigned* buf, unsigned* out) {
    const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    buf[i] = unsigned(i);
    __syncthreads();
    const unsigned v = buf[i ^ 32];  // the next (or previous) warp's word: not the thread's own register
    if (v == 0xffffffffu) out[i] = v;  // never: keeps the load
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv);
    const size_t bytes = size_t(kWords) * 4;
    unsigned* bufs[7];
    for (unsigned*& b : bufs) {
        HIP_CHECK(hipMalloc(&b, bytes));
        HIP_CHECK(hipMemset(b, 0, bytes));
    }
    HIP_CHECK(hipDeviceSynchronize());
    const dim3 grid(kBlocks), block(kThreads);
    const double b = double(bytes);
    validation::measure(single, "l1_store_hits", "load_store_same", kWords, 2 * b,
                        [&] { hipLaunchKernelGGL(load_store_same, grid, block, 0, 0, bufs[0]); });
    validation::measure(single, "l1_store_hits", "store_only", kWords, b,
                        [&] { hipLaunchKernelGGL(store_only, grid, block, 0, 0, bufs[1]); });
    validation::measure(single, "l1_store_hits", "load_store_other", kWords, 2 * b,
                        [&] { hipLaunchKernelGGL(load_store_other, grid, block, 0, 0, bufs[2], bufs[3]); });
    validation::measure(single, "l1_store_hits", "load_half_store", kWords, b,
                        [&] { hipLaunchKernelGGL(load_half_store, grid, block, 0, 0, bufs[4]); });
    validation::measure(single, "l1_store_hits", "store_store_warps", kWords, b,
                        [&] { hipLaunchKernelGGL(store_store_warps, grid, block, 0, 0, bufs[5]); });
    validation::measure(single, "l1_store_hits", "store_load_other", kWords, 2 * b,
                        [&] { hipLaunchKernelGGL(store_load_other, grid, block, 0, 0, bufs[6], bufs[0]); });
    for (unsigned* p : bufs) HIP_CHECK(hipFree(p));
    return 0;
}
