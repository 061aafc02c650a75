// LDS (shared memory) bank conflicts: each lane reads word lane x STRIDE of a
// shared buffer, 4-byte lanes at strides of 1, 2, 4, 8, 16, 32 and 33 words,
// and 8- and 16-byte lanes at stride 1 (seeds 000 and 002). With 32 banks of
// 4 bytes a 32-lane group at stride s costs 32 / (32 / gcd(s, 32)) words per bank.
#include "../common/harness.h"

constexpr int kWords = 32 * 33 + 64;

template <int STRIDE, typename T>
__global__ void lds_read(float* out, int iters, int zero) {
    __shared__ T buf[kWords];
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) buf[i] = T();
    __syncthreads();
    const int lane = threadIdx.x & 31;
    float acc = 0;
    for (int it = 0; it < iters; ++it) {
        // `zero` is 0 at run time; the compiler cannot know, so each iteration loads again.
        const T v = buf[(lane * STRIDE + (int(acc) & zero)) % kWords];
        acc += *reinterpret_cast<const float*>(&v);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int STRIDE, typename T>
void run(bool single, bool small, float* out, const char* name) {
    const int blocks = small ? 132 : 1056, threads = 256, iters = small ? 64 : 512;
    validation::measure(single, "lds_bank", name, iters, 0, [&] {
        hipLaunchKernelGGL((lds_read<STRIDE, T>), dim3(blocks), dim3(threads), 0, 0, out, iters, 0);
    });
}

int main(int argc, char** argv) {
    bool single = validation::once(argc, argv), small = validation::small(argc, argv);
    float* out;
    HIP_CHECK(hipMalloc(&out, 1056 * 256 * sizeof(float)));
    run<1, float>(single, small, out, "b4_stride1");
    run<2, float>(single, small, out, "b4_stride2");
    run<4, float>(single, small, out, "b4_stride4");
    run<8, float>(single, small, out, "b4_stride8");
    run<16, float>(single, small, out, "b4_stride16");
    run<32, float>(single, small, out, "b4_stride32");
    run<33, float>(single, small, out, "b4_stride33");
    run<1, double>(single, small, out, "b8_stride1");
    run<1, float4>(single, small, out, "b16_stride1");
    HIP_CHECK(hipFree(out));
    return 0;
}
