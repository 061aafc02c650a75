// Host-device transfers (issue "transfers"): the time of one synchronous copy for each host memory
// kind (pageable malloc, pinned, write-combined pinned, mapped pinned) in both directions, and
// device to device, 4 KiB to 1 GiB; kernels reading and writing mapped host memory over the link;
// and a pipeline of (h2d copy, kernel, d2h copy) split over 1, 2, 4 and 8 streams, with each
// piece's time alone, so that a model given the pieces can be checked on the overlap.
// Times are host wall-clock (a user's view: a pageable copy includes its staging), the median of
// `reps` after one warm-up. Prints one line per case:
//   RESULT copy <h2d|d2h|d2d> <pageable|pinned|wc|mapped|device> <bytes> <median us>
//   RESULT mapped <read|write> <bytes> <median us>
//   RESULT piece <h2d|kernel|d2h> <bytes> <median us>   (one stream's share of the pipeline, alone)
//   RESULT overlap <streams> <total bytes> <median us>
#include <chrono>

#include "../common/harness.h"

namespace {

double now_us() {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <typename F>
double median_us(int reps, F&& f) {
    f();  // warm-up: first touch of pages, the driver's own setup
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) {
        const double a = now_us();
        f();
        t.push_back(now_us() - a);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int reps_for(size_t bytes) { return bytes >= (256u << 20) ? 5 : bytes >= (16u << 20) ? 11 : 21; }

__global__ void scale(float* d, size_t n) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) d[i] = d[i] * 2.0f + 1.0f;
}

__global__ void read_mapped(const float4* h, float4* d, size_t n) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) d[i] = h[i];
}

struct HostBuffers {
    void* pageable;
    void *pinned, *wc, *mapped;
};

void copies(HostBuffers& h, void* dev, void* dev2, size_t max_bytes) {
    const char* kinds[] = {"pageable", "pinned", "wc", "mapped"};
    void* bufs[] = {h.pageable, h.pinned, h.wc, h.mapped};
    for (size_t bytes = 4096; bytes <= max_bytes; bytes *= 4) {
        for (int k = 0; k < 4; ++k) {
            const double up = median_us(reps_for(bytes), [&] { HIP_CHECK(hipMemcpy(dev, bufs[k], bytes, hipMemcpyHostToDevice)); });
            std::printf("RESULT copy h2d %s %zu %.3f\n", kinds[k], bytes, up);
            const double down = median_us(reps_for(bytes), [&] { HIP_CHECK(hipMemcpy(bufs[k], dev, bytes, hipMemcpyDeviceToHost)); });
            std::printf("RESULT copy d2h %s %zu %.3f\n", kinds[k], bytes, down);
        }
        // A device-to-device hipMemcpy may return before the copy ends: wait for it.
        const double dd = median_us(reps_for(bytes), [&] {
            HIP_CHECK(hipMemcpy(dev2, dev, bytes, hipMemcpyDeviceToDevice));
            HIP_CHECK(hipDeviceSynchronize());
        });
        std::printf("RESULT copy d2d device %zu %.3f\n", bytes, dd);
        std::fflush(stdout);
    }
}

void mapped(HostBuffers& h, void* dev, size_t max_bytes) {
    float4* hdev = nullptr;
    HIP_CHECK(hipHostGetDevicePointer(reinterpret_cast<void**>(&hdev), h.mapped, 0));
    for (size_t bytes = 64 << 10; bytes <= max_bytes; bytes *= 4) {
        const size_t n = bytes / sizeof(float4);
        const double rd = median_us(reps_for(bytes), [&] {
            hipLaunchKernelGGL(read_mapped, dim3(1056), dim3(256), 0, 0, hdev, static_cast<float4*>(dev), n);
            HIP_CHECK(hipDeviceSynchronize());
        });
        std::printf("RESULT mapped read %zu %.3f\n", bytes, rd);
        const double wr = median_us(reps_for(bytes), [&] {
            hipLaunchKernelGGL(read_mapped, dim3(1056), dim3(256), 0, 0, static_cast<const float4*>(dev), hdev, n);
            HIP_CHECK(hipDeviceSynchronize());
        });
        std::printf("RESULT mapped write %zu %.3f\n", bytes, wr);
    }
}

// total bytes in `streams` equal pieces: each stream copies its piece in, scales it, copies it out.
void overlap(float* pinned, float* dev, size_t total) {
    std::vector<hipStream_t> s(8);
    for (auto& x : s) HIP_CHECK(hipStreamCreate(&x));
    for (int streams = 1; streams <= 8; streams *= 2) {
        const size_t piece = total / streams, n = piece / sizeof(float);
        auto run = [&](int parts) {
            for (int i = 0; i < parts; ++i) {
                char* hp = reinterpret_cast<char*>(pinned) + i * piece;
                float* dp = reinterpret_cast<float*>(reinterpret_cast<char*>(dev) + i * piece);
                HIP_CHECK(hipMemcpyAsync(dp, hp, piece, hipMemcpyHostToDevice, s[i]));
                hipLaunchKernelGGL(scale, dim3(1056), dim3(256), 0, s[i], dp, n);
                HIP_CHECK(hipMemcpyAsync(hp, dp, piece, hipMemcpyDeviceToHost, s[i]));
            }
            HIP_CHECK(hipDeviceSynchronize());
        };
        std::printf("RESULT overlap %d %zu %.3f\n", streams, total, median_us(11, [&] { run(streams); }));
        std::printf("RESULT piece h2d %zu %.3f\n", piece, median_us(11, [&] { HIP_CHECK(hipMemcpy(dev, pinned, piece, hipMemcpyHostToDevice)); }));
        std::printf("RESULT piece kernel %zu %.3f\n", piece, median_us(11, [&] {
            hipLaunchKernelGGL(scale, dim3(1056), dim3(256), 0, 0, dev, n);
            HIP_CHECK(hipDeviceSynchronize());
        }));
        std::printf("RESULT piece d2h %zu %.3f\n", piece, median_us(11, [&] { HIP_CHECK(hipMemcpy(pinned, dev, piece, hipMemcpyDeviceToHost)); }));
        std::fflush(stdout);
    }
    for (auto& x : s) HIP_CHECK(hipStreamDestroy(x));
}

}  // namespace

int main(int argc, char** argv) {
    const bool small = validation::small(argc, argv);
    const size_t max_bytes = small ? (16u << 20) : (size_t(1) << 30);
    HostBuffers h{};
    h.pageable = std::malloc(max_bytes);
    std::memset(h.pageable, 1, max_bytes);
    HIP_CHECK(hipHostMalloc(&h.pinned, max_bytes, hipHostMallocDefault));
    HIP_CHECK(hipHostMalloc(&h.wc, max_bytes, hipHostMallocWriteCombined));
    HIP_CHECK(hipHostMalloc(&h.mapped, max_bytes, hipHostMallocMapped));
    void *dev = nullptr, *dev2 = nullptr;
    HIP_CHECK(hipMalloc(&dev, max_bytes));
    HIP_CHECK(hipMalloc(&dev2, max_bytes));
    copies(h, dev, dev2, max_bytes);
    mapped(h, dev, small ? (16u << 20) : (256u << 20));
    overlap(static_cast<float*>(h.pinned), static_cast<float*>(dev), small ? (16u << 20) : (256u << 20));
    HIP_CHECK(hipFree(dev));
    HIP_CHECK(hipFree(dev2));
    HIP_CHECK(hipHostFree(h.pinned));
    HIP_CHECK(hipHostFree(h.wc));
    HIP_CHECK(hipHostFree(h.mapped));
    std::free(h.pageable);
    return 0;
}
