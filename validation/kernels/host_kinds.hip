// Host calls for capture (issue "transfers", acceptance 4): one program that uses all four host
// memory kinds (pageable malloc, pinned, write-combined, mapped) and two streams whose asynchronous
// copies overlap kernels, so that dcutrace's host statements can be checked against this source and
// dcusim's timeline against the GPU. One iteration, in program order:
//   phase 1, the default stream: 8 synchronous copies of kBytes, h2d from each kind, then d2h into
//            each kind;
//   phase 2, streams 1 and 2: each an asynchronous h2d of kHalf (stream 1 from pinned, stream 2 from
//            write-combined), `scale` on that half, an asynchronous d2h (stream 1 into pinned, stream 2
//            into mapped); the host sums the pageable buffer meanwhile, then waits for stream 1, then 2;
//   phase 3, the default stream: `read_mapped` reads kHalf of mapped memory through its device
//            pointer; then the host waits for the device.
// Every copy and phase is bracketed by events on the default stream. Prints, per case, the median
// over `reps` iterations after one warm-up (--once: one iteration, for capture):
//   RESULT copy <h2d|d2h> <pageable|pinned|wc|mapped> <bytes> <median us>
//   RESULT phase <copies|streams|mapped|iteration> <median us>
//   RESULT host sum <median us>   (phase 2's host work alone, by the host's clock)
#include <chrono>
#include <vector>

#include "../common/harness.h"

namespace {

constexpr size_t kBytes = 8u << 20, kHalf = kBytes / 2;
constexpr int kBlocks = 1056, kThreads = 256;  // 8 blocks on each of the H200's 132 SMs

__global__ void scale(float* d, size_t n) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) d[i] = d[i] * 2.0f + 1.0f;
}

__global__ void read_mapped(const float4* h, float4* d, size_t n) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) d[i] = h[i];
}

struct Buffers {
    char *pageable, *pinned, *wc, *mapped;
    float4* mapped_dev;  // the mapped buffer as kernels reach it
    char *dev0, *dev1, *dev2;
    hipStream_t s1, s2;
};

// Events in pairs (start, stop) on the default stream; times in us.
struct Marks {
    std::vector<hipEvent_t> ev;
    explicit Marks(int pairs) : ev(2 * pairs) {
        for (auto& e : ev) HIP_CHECK(hipEventCreate(&e));
    }
    void start(int i) { HIP_CHECK(hipEventRecord(ev[2 * i], 0)); }
    void stop(int i) { HIP_CHECK(hipEventRecord(ev[2 * i + 1], 0)); }
    double us(int i) {
        float ms = 0;
        HIP_CHECK(hipEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]));
        return ms * 1e3;
    }
};

const char* kKinds[] = {"pageable", "pinned", "wc", "mapped"};
enum Mark { kPhaseCopies = 8, kPhaseStreams, kPhaseMapped, kIteration, kMarks };

void phase_copies(Buffers& b, Marks& m) {
    char* host[] = {b.pageable, b.pinned, b.wc, b.mapped};
    m.start(kPhaseCopies);
    for (int k = 0; k < 4; ++k) {
        m.start(k);
        HIP_CHECK(hipMemcpy(b.dev0, host[k], kBytes, hipMemcpyHostToDevice));
        m.stop(k);
    }
    for (int k = 0; k < 4; ++k) {
        m.start(4 + k);
        HIP_CHECK(hipMemcpy(host[k], b.dev0, kBytes, hipMemcpyDeviceToHost));
        m.stop(4 + k);
    }
    m.stop(kPhaseCopies);
    HIP_CHECK(hipEventSynchronize(m.ev[2 * kPhaseCopies + 1]));
}

double host_work(const Buffers& b) {  // the host's own part of phase 2: a sum over the pageable buffer
    const float* f = reinterpret_cast<const float*>(b.pageable);
    double sum = 0;
    for (size_t i = 0; i < kBytes / sizeof(float); ++i) sum += f[i];
    return sum;
}

double phase_streams(Buffers& b, Marks& m, double& host_us) {
    const size_t n = kHalf / sizeof(float);
    m.start(kPhaseStreams);
    HIP_CHECK(hipMemcpyAsync(b.dev0, b.pinned, kHalf, hipMemcpyHostToDevice, b.s1));
    hipLaunchKernelGGL(scale, dim3(kBlocks), dim3(kThreads), 0, b.s1, reinterpret_cast<float*>(b.dev0), n);
    HIP_CHECK(hipMemcpyAsync(b.pinned, b.dev0, kHalf, hipMemcpyDeviceToHost, b.s1));
    HIP_CHECK(hipMemcpyAsync(b.dev1, b.wc, kHalf, hipMemcpyHostToDevice, b.s2));
    hipLaunchKernelGGL(scale, dim3(kBlocks), dim3(kThreads), 0, b.s2, reinterpret_cast<float*>(b.dev1), n);
    HIP_CHECK(hipMemcpyAsync(b.mapped, b.dev1, kHalf, hipMemcpyDeviceToHost, b.s2));
    const auto t0 = std::chrono::steady_clock::now();
    const double sum = host_work(b);
    host_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    HIP_CHECK(hipStreamSynchronize(b.s1));
    HIP_CHECK(hipStreamSynchronize(b.s2));
    m.stop(kPhaseStreams);
    return sum;
}

void phase_mapped(Buffers& b, Marks& m) {
    m.start(kPhaseMapped);
    hipLaunchKernelGGL(read_mapped, dim3(kBlocks), dim3(kThreads), 0, 0, b.mapped_dev, reinterpret_cast<float4*>(b.dev2),
                       kHalf / sizeof(float4));
    m.stop(kPhaseMapped);
}

void iteration(Buffers& b, Marks& m, double& sink, double& host_us) {
    m.start(kIteration);
    phase_copies(b, m);
    sink += phase_streams(b, m, host_us);
    phase_mapped(b, m);
    m.stop(kIteration);
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipGetLastError());
}

Buffers setup() {
    Buffers b{};
    b.pageable = static_cast<char*>(std::malloc(kBytes));
    std::memset(b.pageable, 0, kBytes);
    HIP_CHECK(hipHostMalloc(reinterpret_cast<void**>(&b.pinned), kBytes, hipHostMallocDefault));
    HIP_CHECK(hipHostMalloc(reinterpret_cast<void**>(&b.wc), kBytes, hipHostMallocWriteCombined));
    HIP_CHECK(hipHostMalloc(reinterpret_cast<void**>(&b.mapped), kBytes, hipHostMallocMapped));
    HIP_CHECK(hipHostGetDevicePointer(reinterpret_cast<void**>(&b.mapped_dev), b.mapped, 0));
    for (char* h : {b.pinned, b.wc, b.mapped}) std::memset(h, 0, kBytes);
    for (char** d : {&b.dev0, &b.dev1, &b.dev2}) {
        HIP_CHECK(hipMalloc(reinterpret_cast<void**>(d), kBytes));
        HIP_CHECK(hipMemset(*d, 0, kBytes));
    }
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipStreamCreate(&b.s1));
    HIP_CHECK(hipStreamCreate(&b.s2));
    return b;
}

}  // namespace

int main(int argc, char** argv) {
    const bool once = validation::flag(argc, argv, "--once");
    const int reps = once ? 1 : 11;
    Buffers b = setup();
    Marks m(kMarks);
    double sink = 0, host_us = 0;
    if (!once) iteration(b, m, sink, host_us);  // warm-up: first touch of pages, the driver's own setup
    std::vector<std::vector<double>> t(kMarks + 1);  // the events' pairs, then the host's sum
    for (int r = 0; r < reps; ++r) {
        iteration(b, m, sink, host_us);
        for (int i = 0; i < kMarks; ++i) t[i].push_back(m.us(i));
        t[kMarks].push_back(host_us);
    }
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    for (int k = 0; k < 4; ++k) std::printf("RESULT copy h2d %s %zu %.3f\n", kKinds[k], kBytes, median(t[k]));
    for (int k = 0; k < 4; ++k) std::printf("RESULT copy d2h %s %zu %.3f\n", kKinds[k], kBytes, median(t[4 + k]));
    const char* phases[] = {"copies", "streams", "mapped", "iteration"};
    for (int p = 0; p < 4; ++p) std::printf("RESULT phase %s %.3f\n", phases[p], median(t[kPhaseCopies + p]));
    std::printf("RESULT host sum %.3f\n", median(t[kMarks]));
    std::printf("# host sum %.1f (reps %d)\n", sink, reps);
    HIP_CHECK(hipStreamDestroy(b.s1));
    HIP_CHECK(hipStreamDestroy(b.s2));
    for (char* d : {b.dev0, b.dev1, b.dev2}) HIP_CHECK(hipFree(d));
    for (char* h : {b.pinned, b.wc, b.mapped}) HIP_CHECK(hipHostFree(h));
    std::free(b.pageable);
    return 0;
}
