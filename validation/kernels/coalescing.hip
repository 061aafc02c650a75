// Coalescing: lanes read 4-byte words at strides of 1, 2, 4, 8, 16 and 32
// words, and at random (seed 002's table); an array of structures against a
// structure of arrays (seeds 000, 002). 64 Mi reads per kernel (1 Mi with --small,
// 16 Mi with --sample-size: 65,536 blocks; 128 Mi with --large: 524,288 blocks, 496
// occupancy rounds on the H200, for sampled simulation).
#include "../common/harness.h"

template <int STRIDE>
__global__ void strided(float* out, const float* in, long long words) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    out[i] = in[(i * STRIDE) % words];
}

__global__ void gather(float* out, const float* in, const unsigned* idx) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    out[i] = in[idx[i]];
}

struct Particle { float x, y, z, w; };
__global__ void aos(float* out, const Particle* p) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    out[i] = p[i].x;
}
__global__ void soa(float* out, const float* x) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    out[i] = x[i];
}

template <int STRIDE>
void run(bool single, long long kReads, float* out, const float* in, long long words, const char* name) {
    validation::measure(single, "coalescing", name, STRIDE, 4.0 * 2 * kReads, [&] {
        hipLaunchKernelGGL(strided<STRIDE>, dim3(unsigned(kReads / 256)), dim3(256), 0, 0, out, in, words);
    });
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv);
    const long long kReads = validation::small(argc, argv)                ? 1ll << 20
                             : validation::sample_size(argc, argv)        ? 1ll << 24
                             : validation::flag(argc, argv, "--large")    ? 1ll << 27
                                                                          : 1ll << 26;
    const long long in_words = 1ll << 29;  // 2 GiB: larger strides wrap around in it
    float *in, *out;
    unsigned* idx;
    HIP_CHECK(hipMalloc(&in, sizeof(float) * in_words));
    HIP_CHECK(hipMalloc(&out, sizeof(float) * kReads));
    HIP_CHECK(hipMalloc(&idx, sizeof(unsigned) * kReads));
    HIP_CHECK(hipMemset(in, 0, sizeof(float) * in_words));
    std::vector<unsigned> h(kReads);
    unsigned s = 12345;
    for (auto& v : h) v = (s = s * 1664525u + 1013904223u) % unsigned(kReads);  // fixed seed: the same every run
    HIP_CHECK(hipMemcpy(idx, h.data(), sizeof(unsigned) * kReads, hipMemcpyHostToDevice));
    run<1>(single, kReads, out, in, in_words, "stride1");
    run<2>(single, kReads, out, in, in_words, "stride2");
    run<4>(single, kReads, out, in, in_words, "stride4");
    run<8>(single, kReads, out, in, in_words, "stride8");
    run<16>(single, kReads, out, in, in_words, "stride16");
    run<32>(single, kReads, out, in, in_words, "stride32");
    validation::measure(single, "coalescing", "random", 0, 4.0 * 3 * kReads, [&] {
        hipLaunchKernelGGL(gather, dim3(unsigned(kReads / 256)), dim3(256), 0, 0, out, in, idx);
    });
    validation::measure(single, "layout", "aos", kReads, 4.0 * 2 * kReads, [&] {
        hipLaunchKernelGGL(aos, dim3(unsigned(kReads / 256)), dim3(256), 0, 0, out, reinterpret_cast<const Particle*>(in));
    });
    validation::measure(single, "layout", "soa", kReads, 4.0 * 2 * kReads, [&] {
        hipLaunchKernelGGL(soa, dim3(unsigned(kReads / 256)), dim3(256), 0, 0, out, in);
    });
    HIP_CHECK(hipFree(in));
    HIP_CHECK(hipFree(out));
    HIP_CHECK(hipFree(idx));
    return 0;
}
