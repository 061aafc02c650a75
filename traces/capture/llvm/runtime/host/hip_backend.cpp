#include "hip_backend.h"

#include <string>

namespace dcucc::host {

namespace {

hipStream_t as_stream(void* s) { return static_cast<hipStream_t>(s); }

void check(hipError_t e, const char* call) {
    if (e != hipSuccess) throw CaptureError(std::string(call) + ": " + hipGetErrorString(e));
}

}  // namespace

int HipBackend::device() {
    int d = 0;
    check(hipGetDevice(&d), "hipGetDevice");
    return d;
}

uint32_t HipBackend::wave_size(int device) {
    int v = 0;
    check(hipDeviceGetAttribute(&v, hipDeviceAttributeWarpSize, device), "hipDeviceGetAttribute(warpSize)");
    return uint32_t(v);
}

uint64_t HipBackend::alloc_device(uint64_t bytes) {
    void* p = nullptr;
    check(hipMalloc(&p, bytes), "hipMalloc");
    return uint64_t(uintptr_t(p));
}

void* HipBackend::alloc_pinned(uint64_t bytes) {
    void* p = nullptr;
    check(hipHostMalloc(&p, bytes, hipHostMallocDefault), "hipHostMalloc");
    return p;
}

void HipBackend::free_pinned(void* p) { (void)hipHostFree(p); }

void HipBackend::sync_device() { check(hipDeviceSynchronize(), "hipDeviceSynchronize"); }

void HipBackend::upload(uint64_t dst, const void* src, uint64_t bytes, void* stream) {
    check(hipMemcpyAsync(reinterpret_cast<void*>(uintptr_t(dst)), src, bytes, hipMemcpyHostToDevice, as_stream(stream)),
          "hipMemcpyAsync (control block)");
}

void HipBackend::sync(void* stream) { check(hipStreamSynchronize(as_stream(stream)), "the kernel failed"); }

void HipBackend::download(void* dst, uint64_t src, uint64_t bytes, void* stream) {
    check(hipMemcpyAsync(dst, reinterpret_cast<const void*>(uintptr_t(src)), bytes, hipMemcpyDeviceToHost,
                         as_stream(stream)),
          "hipMemcpyAsync (records)");
    check(hipStreamSynchronize(as_stream(stream)), "hipStreamSynchronize");
}

bool HipBackend::capturing(void* stream) {
    hipStreamCaptureStatus st = hipStreamCaptureStatusNone;
    return hipStreamIsCapturing(as_stream(stream), &st) == hipSuccess && st != hipStreamCaptureStatusNone;
}

HipBackend& hip_backend() {
    static HipBackend* b = new HipBackend;
    return *b;
}

namespace {

// Before main: a program built with dcucc must say where its trace goes
// before it runs, not after (DCUCC_TRACE), and a bad setting stops it at once.
__attribute__((constructor)) void start_capture() { process_capture(); }

}  // namespace

}  // namespace dcucc::host
