// Does an L2 partition keep a copy of what its SMs read, and of what they
// write? One thread chases through 2,048 lines of a buffer in a random cyclic
// order (each line's first word holds the next line's offset), timing every
// load with clock64. Its loads skip the L1 (ld.global.cg), so each is an L2
// lookup at least. Variants, each on a fresh buffer, 3 launches:
//   read:  the chain is copied in from the host and pushed out of the L2 by a
//          256 MiB memset; pass 1 touches each line first (DRAM), pass 2 again.
//          With copies per side, pass 2 hits the SM's own partition on every
//          line; without, lines homed on the far side cost the link both ways.
//   write_word: the thread itself writes the chain, one 4-byte word a line,
//          then chases it (a sector written in part: is it readable in the L2?)
//   write_sector: the same with the whole first 32-byte sector of each line
//          written: with a copy left by the store on the SM's side, every load
//          is a near hit; without, far-homed lines cost the link.
//   write_flush: write_sector with a 256 MiB memset between the stores and the
//          chase, which the stores' dirty lines must have left by then.
// Prints per launch and pass: LAT <variant> <launch> <pass> <sm> and the count
// of loads in each 25-cycle bin from 0 (bin: count ...), then the median.
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "../common/device_timers.h"
#include "../common/harness.h"

constexpr int kLines = 2048;
constexpr int kWords = 32;  // 4-byte words in a 128-byte line
constexpr int kBins = 80;   // 25 cycles each: 0 to 2,000

__device__ unsigned load_l2(const unsigned* p) {
#if defined(__CUDA_ARCH__)
    unsigned v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
#else
    return *(const volatile unsigned*)p;
#endif
}

// write 1: first store next[i] into line i's first word; 2: and zeros in the rest of its first sector.
// Then `passes` chases from line 0.
__global__ void chase(unsigned* buf, const unsigned* next, int write, int passes, unsigned zero,
                      unsigned long long* lat, unsigned* sm) {
    __shared__ unsigned sink;
    if (write == 1)
        for (int i = 0; i < kLines; ++i) buf[i * kWords] = next[i];
    if (write == 2)
        for (int i = 0; i < kLines; ++i) {
            uint4* sector = reinterpret_cast<uint4*>(buf + i * kWords);
            sector[0] = make_uint4(next[i], 0u, 0u, 0u);
            sector[1] = make_uint4(0u, 0u, 0u, 0u);
        }
    __threadfence();
    unsigned line = 0;
    for (int p = 0; p < passes; ++p)
        for (int i = 0; i < kLines; ++i) {
            const long long t0 = cu_cycles();
            line = load_l2(buf + line * kWords + (line & zero));
            sink = line & zero;  // issues once the value is back
            lat[p * kLines + i] = (unsigned long long)(cu_cycles() - t0);
        }
    *sm = cu_id() + (sink & zero);
}

int main(int argc, char** argv) {
    validation::once(argc, argv);
    // A random cycle through the lines: next[order[k]] = order[k + 1].
    std::vector<unsigned> order(kLines), next(kLines);
    for (int i = 0; i < kLines; ++i) order[i] = unsigned(i);
    std::mt19937 rng(12345);
    std::shuffle(order.begin() + 1, order.end(), rng);  // the chase starts at line 0
    for (int k = 0; k < kLines; ++k) next[order[k]] = order[(k + 1) % kLines];
    std::vector<unsigned> image(size_t(kLines) * kWords, 0);
    for (int i = 0; i < kLines; ++i) image[size_t(i) * kWords] = next[i];

    const size_t buf_bytes = image.size() * sizeof(unsigned);
    const size_t flush_bytes = size_t(256) << 20;
    const int launches = 3;
    unsigned *bufs, *d_next, *d_sm, *flush;
    unsigned long long* d_lat;
    const int variants = 4;
    HIP_CHECK(hipMalloc(&bufs, buf_bytes * variants * launches));
    HIP_CHECK(hipMalloc(&d_next, kLines * sizeof(unsigned)));
    HIP_CHECK(hipMalloc(&d_sm, sizeof(unsigned)));
    HIP_CHECK(hipMalloc(&flush, flush_bytes));
    HIP_CHECK(hipMalloc(&d_lat, 2 * kLines * sizeof(unsigned long long)));
    HIP_CHECK(hipMemcpy(d_next, next.data(), kLines * sizeof(unsigned), hipMemcpyHostToDevice));
    std::vector<unsigned long long> lat(2 * kLines);
    const char* names[variants] = {"read", "write_word", "write_sector", "write_flush"};
    const int writes[variants] = {0, 1, 2, 2};
    for (int v = 0; v < variants; ++v)
        for (int l = 0; l < launches; ++l) {
            unsigned* buf = bufs + (size_t(v) * launches + l) * (buf_bytes / sizeof(unsigned));
            const int passes = v == 0 ? 2 : 1;
            if (v == 0) {
                HIP_CHECK(hipMemcpy(buf, image.data(), buf_bytes, hipMemcpyHostToDevice));
                HIP_CHECK(hipMemset(flush, l + 1, flush_bytes));  // pushes the copied chain out of the L2
            }
            const bool flushed = v == 3;
            if (flushed) {
                // The stores first, in a launch of their own (one pass that only writes), then the memset.
                hipLaunchKernelGGL(chase, dim3(1), dim3(1), 0, 0, buf, d_next, writes[v], 0, 0u, d_lat, d_sm);
                HIP_CHECK(hipMemset(flush, l + 1, flush_bytes));
            }
            hipLaunchKernelGGL(chase, dim3(1), dim3(1), 0, 0, buf, d_next, flushed ? 0 : writes[v], passes, 0u, d_lat,
                               d_sm);
            HIP_CHECK(hipGetLastError());
            HIP_CHECK(hipDeviceSynchronize());
            unsigned sm = 0;
            HIP_CHECK(hipMemcpy(lat.data(), d_lat, lat.size() * sizeof(unsigned long long), hipMemcpyDeviceToHost));
            HIP_CHECK(hipMemcpy(&sm, d_sm, sizeof(unsigned), hipMemcpyDeviceToHost));
            for (int p = 0; p < passes; ++p) {
                std::vector<int> bins(kBins + 1, 0);
                std::vector<unsigned long long> sorted(lat.begin() + p * kLines, lat.begin() + (p + 1) * kLines);
                for (unsigned long long c : sorted) ++bins[std::min<unsigned long long>(c / 25, kBins)];
                std::sort(sorted.begin(), sorted.end());
                std::printf("LAT %s %d %d %u", names[v], l, p + 1, sm);
                for (int b = 0; b <= kBins; ++b) std::printf(" %d", bins[b]);
                std::printf(" median %llu\n", sorted[kLines / 2]);
            }
        }
    HIP_CHECK(hipFree(bufs));
    HIP_CHECK(hipFree(d_next));
    HIP_CHECK(hipFree(d_sm));
    HIP_CHECK(hipFree(flush));
    HIP_CHECK(hipFree(d_lat));
    return 0;
}
