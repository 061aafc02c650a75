// Stores that write sectors only in part, over buffers larger than the L2:
// does the L2 read the rest of each sector from DRAM before it writes it back
// (a read-modify-write, as ECC over whole sectors would need), or does it
// write only the bytes it has? Under a profiler that empties the caches first,
// dram__bytes_read answers: 0 for masked writes, about the written sectors'
// bytes (or their 64-byte fetch blocks) for read-modify-write.
//   word_per_sector: one 4-byte word at the start of every 32-byte sector;
//   word_per_line:   one 4-byte word at the start of every 128-byte line;
//   whole_sector:    every byte of every sector (8 words per sector), the control.
// Then sectors written whole, but in parts by different store instructions, 256 MiB each: does the L2
// merge the parts, or fetch the sector when its first part comes?
//   halves:       each lane writes every other word, the warp's next store the words between;
//   across_warps: 32 x 8 blocks, warp y writes word y of each of 32 sectors (a naive transpose's
//                 stores): the block's 8 warps complete each sector together.
#include "../common/harness.h"

__global__ void words(unsigned* out, long long n, int stride_words) {
    const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) out[i * stride_words] = 1u;
}

__global__ void halves(unsigned* out, long long pairs) {
    const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const long long base = (i / 32) * 64 + (i % 32) * 2;  // the warp's 64 words, even then odd
    if (i < pairs) out[base] = 1u;
    __threadfence_block();  // two store instructions: the compiler may not join them into one
    if (i < pairs) out[base + 1] = 2u;
}

__global__ void across_warps(unsigned* out) {
    const long long sector = blockIdx.x * 32ll + threadIdx.x;
    out[sector * 8 + threadIdx.y] = 1u;
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv);
    const long long max_bytes = 256ll << 20;
    unsigned* out;
    HIP_CHECK(hipMalloc(&out, max_bytes));
    struct Variant {
        const char* name;
        int stride_words;  // one store every this many 4-byte words
    };
    for (long long mib : {64, 256}) {
        if (validation::small(argc, argv) && mib > 64) break;
        for (Variant v : {Variant{"word_per_sector", 8}, Variant{"word_per_line", 32}, Variant{"whole_sector", 1}}) {
            const long long n = (mib << 20) / 4 / v.stride_words;
            char name[48];
            std::snprintf(name, sizeof name, "%s_%lldMiB", v.name, mib);
            validation::measure(single, "partial_writes", name, mib << 20, double(n) * 4, [&] {
                hipLaunchKernelGGL(words, dim3(unsigned((n + 255) / 256)), dim3(256), 0, 0, out, n, v.stride_words);
            });
        }
    }
    if (!validation::small(argc, argv)) {
        const long long bytes = 256ll << 20, words = bytes / 4;
        validation::measure(single, "partial_writes", "halves_256MiB", bytes, double(bytes), [&] {
            hipLaunchKernelGGL(halves, dim3(unsigned(words / 2 / 256)), dim3(256), 0, 0, out, words / 2);
        });
        validation::measure(single, "partial_writes", "across_warps_256MiB", bytes, double(bytes), [&] {
            hipLaunchKernelGGL(across_warps, dim3(unsigned(words / 8 / 32)), dim3(32, 8), 0, 0, out);
        });
    }
    HIP_CHECK(hipFree(out));
    return 0;
}
