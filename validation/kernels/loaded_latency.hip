// DRAM load latency under load: one thread chases pointers through 2,048
// random lines of a 1 GiB buffer (each one a DRAM access) while other blocks
// stream reads from a second 1 GiB buffer until the chase is done. The chase's
// cycles per load against the background's bandwidth give the latency-load
// curve that the model's DRAM and L2 queues must follow.
// Usage: loaded_latency; prints one line per background size:
//   LOADED <background blocks> <cycles per chase load> <background GB/s>
#include "../common/harness.h"

constexpr unsigned kSteps = 2048;

__global__ void loaded(const unsigned* next, const float4* stream, long long n, volatile int* done,
                       unsigned long long* out) {
    if (blockIdx.x == 0) {
        if (threadIdx.x != 0) return;
        unsigned p = 0;
        const long long c0 = clock64();
        for (unsigned i = 0; i < kSteps; ++i) p = next[p];
        const long long c1 = clock64();
        *done = 1;
        out[0] = (unsigned long long)(c1 - c0);
        out[1] = p;
        return;
    }
    // Background: grid-stride reads until the chase is done, counted.
    const long long threads = (long long)(gridDim.x - 1) * blockDim.x;
    long long i = (blockIdx.x - 1) * (long long)blockDim.x + threadIdx.x;
    float s = 0;
    unsigned long long loads = 0;
    while (!*done) {
        for (int k = 0; k < 8; ++k) {  // 8 loads in flight per check of the flag
            const float4 v = stream[i];
            s += v.x;
            i += threads;
            if (i >= n) i -= n;
        }
        loads += 8;
    }
    if (s == 12345.f) out[2] = 1;  // keeps the loads
    atomicAdd(out + 3, loads);
}

int main() {
    const long long bytes = 1ll << 30;
    const long long lines = bytes / 128;
    unsigned* next;
    float4* stream;
    int* done;
    unsigned long long* out;
    HIP_CHECK(hipMalloc(&next, bytes));
    HIP_CHECK(hipMalloc(&stream, bytes));
    HIP_CHECK(hipMalloc(&done, sizeof(int)));
    HIP_CHECK(hipMalloc(&out, 4 * sizeof(unsigned long long)));
    HIP_CHECK(hipMemset(stream, 0, bytes));
    // The chase: kSteps lines in a random cycle, each the first word of its 128-byte line (fixed seed).
    std::vector<unsigned> h(bytes / sizeof(unsigned), 0), order(kSteps);
    unsigned s = 12345;
    for (unsigned k = 0; k < kSteps; ++k) {
        s = s * 1664525u + 1013904223u;
        order[k] = unsigned((unsigned long long)s * (unsigned long long)lines >> 32) * 32;  // word index of a line
    }
    for (unsigned k = 0; k < kSteps; ++k) h[k ? order[k - 1] : 0] = order[k];
    HIP_CHECK(hipMemcpy(next, h.data(), bytes, hipMemcpyHostToDevice));
    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    for (int background : {0, 4, 8, 16, sms / 4, sms / 2, sms, 2 * sms, 4 * sms, 8 * sms}) {
        for (int rep = 0; rep < 3; ++rep) {
            HIP_CHECK(hipMemset(done, 0, sizeof(int)));
            HIP_CHECK(hipMemset(out, 0, 4 * sizeof(unsigned long long)));
            hipEvent_t a, b;
            HIP_CHECK(hipEventCreate(&a));
            HIP_CHECK(hipEventCreate(&b));
            HIP_CHECK(hipEventRecord(a, 0));
            hipLaunchKernelGGL(loaded, dim3(1 + background), dim3(256), 0, 0, next, stream, bytes / 16, done, out);
            HIP_CHECK(hipEventRecord(b, 0));
            HIP_CHECK(hipEventSynchronize(b));
            HIP_CHECK(hipGetLastError());
            float ms = 0;
            HIP_CHECK(hipEventElapsedTime(&ms, a, b));
            unsigned long long r[4];
            HIP_CHECK(hipMemcpy(r, out, sizeof r, hipMemcpyDeviceToHost));
            const double gbs = double(r[3]) * 16 / (ms * 1e-3) / 1e9;
            std::printf("LOADED %d %.1f %.0f\n", background, double(r[0]) / kSteps, gbs);
            HIP_CHECK(hipEventDestroy(a));
            HIP_CHECK(hipEventDestroy(b));
        }
    }
    HIP_CHECK(hipFree(next));
    HIP_CHECK(hipFree(stream));
    HIP_CHECK(hipFree(done));
    HIP_CHECK(hipFree(out));
    return 0;
}
