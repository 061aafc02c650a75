// Why stores of one word per 128-byte line run at half the DRAM rate of one
// word per 32-byte sector on the H200 (results/h200-partialwrites): the
// read-modify-write of a sector written in part, or the sparseness of the
// DRAM accesses? 256 MiB of lines, written by a grid-stride loop (528 blocks
// of 256 threads, so that block starts do not set the pace), each warp store
// covering whole lines' shares:
//   word_per_line:   4 bytes at the start of every line (a sector written in part);
//   word_per_sector: 4 bytes at the start of every 32-byte sector (all four in part);
//   sector_per_line: the first 32-byte sector of every line, whole;
//   half_line:       the first 64 bytes of every line, whole sectors;
//   whole_line:      every byte, the control;
//   read_sector_per_line: loads of the first sector of every line (each lane
//                    adds what it read, and one store in a million keeps it).
// Prints RESULT lines (harness.h; the size field is the bytes stored or loaded).
#include "../common/harness.h"

constexpr long long kLines = (256ll << 20) / 128;
constexpr int kWords = 32;  // 4-byte words in a line

// Words a variant touches in each line, and where: word k of line l is at
// (l * kWords + first + k * step).
template <int kPerLine, int kStep>
__global__ void store_words(unsigned* out) {
    const long long n = kLines * kPerLine, threads = (long long)gridDim.x * blockDim.x;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < n; e += threads)
        out[(e / kPerLine) * kWords + (e % kPerLine) * kStep] = 1u;
}

__global__ void load_sectors(const unsigned* in, unsigned* out) {
    const long long n = kLines * 8, threads = (long long)gridDim.x * blockDim.x;
    unsigned acc = 0;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < n; e += threads)
        acc += in[(e / 8) * kWords + e % 8];
    if (acc == 12345u) out[0] = acc;
}

template <int kPerLine, int kStep>
void run(bool single, const char* name, unsigned* buf) {
    validation::measure(single, "sparse_writes", name, kLines * kPerLine * 4, double(kLines * kPerLine * 4), [&] {
        hipLaunchKernelGGL((store_words<kPerLine, kStep>), dim3(528), dim3(256), 0, 0, buf);
    });
}

int main(int argc, char** argv) {
    const bool single = validation::once(argc, argv);
    unsigned *buf, *sink;
    HIP_CHECK(hipMalloc(&buf, kLines * 128));
    HIP_CHECK(hipMalloc(&sink, sizeof(unsigned)));
    HIP_CHECK(hipMemset(buf, 0, kLines * 128));
    run<1, 1>(single, "word_per_line", buf);
    run<4, 8>(single, "word_per_sector", buf);
    run<8, 1>(single, "sector_per_line", buf);
    run<16, 1>(single, "half_line", buf);
    run<32, 1>(single, "whole_line", buf);
    validation::measure(single, "sparse_writes", "read_sector_per_line", kLines * 32, double(kLines * 32), [&] {
        hipLaunchKernelGGL(load_sectors, dim3(528), dim3(256), 0, 0, buf, sink);
    });
    HIP_CHECK(hipFree(buf));
    HIP_CHECK(hipFree(sink));
    return 0;
}
