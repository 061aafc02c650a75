#include "cuda_backend.h"

#include <string>

namespace dcucc::host {

namespace {

cudaStream_t as_stream(void* s) { return static_cast<cudaStream_t>(s); }

void check(cudaError_t e, const char* call) {
    if (e != cudaSuccess) throw CaptureError(std::string(call) + ": " + cudaGetErrorString(e));
}

}  // namespace

int CudaBackend::device() {
    int d = 0;
    check(cudaGetDevice(&d), "cudaGetDevice");
    return d;
}

uint32_t CudaBackend::wave_size(int device) {
    int v = 0;
    check(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, device), "cudaDeviceGetAttribute(warpSize)");
    return uint32_t(v);
}

uint64_t CudaBackend::alloc_device(uint64_t bytes) {
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "cudaMalloc");
    return uint64_t(uintptr_t(p));
}

void* CudaBackend::alloc_pinned(uint64_t bytes) {
    void* p = nullptr;
    check(cudaMallocHost(&p, bytes), "cudaMallocHost");
    return p;
}

void CudaBackend::free_pinned(void* p) { cudaFreeHost(p); }

void CudaBackend::sync_device() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

void CudaBackend::upload(uint64_t dst, const void* src, uint64_t bytes, void* stream) {
    check(
        cudaMemcpyAsync(reinterpret_cast<void*>(uintptr_t(dst)), src, bytes, cudaMemcpyHostToDevice, as_stream(stream)),
        "cudaMemcpyAsync (control block)");
}

void CudaBackend::sync(void* stream) { check(cudaStreamSynchronize(as_stream(stream)), "the kernel failed"); }

void CudaBackend::download(void* dst, uint64_t src, uint64_t bytes, void* stream) {
    check(cudaMemcpyAsync(dst, reinterpret_cast<const void*>(uintptr_t(src)), bytes, cudaMemcpyDeviceToHost,
                          as_stream(stream)),
          "cudaMemcpyAsync (records)");
    check(cudaStreamSynchronize(as_stream(stream)), "cudaStreamSynchronize");
}

bool CudaBackend::capturing(void* stream) {
    cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    return cudaStreamIsCapturing(as_stream(stream), &st) == cudaSuccess && st != cudaStreamCaptureStatusNone;
}

CudaBackend& cuda_backend() {
    static CudaBackend* b = new CudaBackend;
    return *b;
}

namespace {

// Before main: a program built with dcucc must say where its trace goes
// before it runs, not after (DCUCC_TRACE), and a bad setting stops it at once.
__attribute__((constructor)) void start_capture() { process_capture(); }

}  // namespace

}  // namespace dcucc::host
