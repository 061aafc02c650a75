// HIP's host calls that dcucc records (host_api.h), as hip_host.cpp records CUDA's: the pass
// sends each call of these to `__dcucc_NAME`, which makes the real call and records it. Other calls
// (hipMemset, hipMalloc, hipMemcpyHtoD and its kin, the per-thread `_spt` forms, the deprecated
// hipMallocHost and hipHostAlloc) run unrecorded.
#include <hip/hip_runtime_api.h>

#include "hip_backend.h"
#include "host_api.h"

namespace dcucc::host {
namespace {

using dcutrace::HostCalls;

// For hipMemcpyDefault: where the runtime says an address lies.
int on_device(const void* p) {
    hipPointerAttribute_t a{};
    if (hipPointerGetAttributes(&a, p) != hipSuccess) {
        (void)hipGetLastError();  // not the program's error
        return -1;
    }
    return a.memoryType == hipMemoryTypeDevice || a.isManaged ? 1 : 0;
}

Whereabouts where(hipMemcpyKind kind, const void* dst, const void* src) {
    return kind == hipMemcpyDefault ? Whereabouts{on_device(src), on_device(dst)} : Whereabouts{};
}

template <class Call, class Record>
hipError_t rec(Call&& call, Record&& record) {
    return recorded(hip_backend(), call, record);
}

}  // namespace
}  // namespace dcucc::host

using namespace dcucc::host;
using dcutrace::HostCalls;

extern "C" {

hipError_t __dcucc_hipMemcpy(void* dst, const void* src, size_t n, hipMemcpyKind kind) {
    return rec([&] { return hipMemcpy(dst, src, n, kind); },
               [&](HostCalls& h) { record_copy(h, int(kind), where(kind, dst, src), addr(dst), addr(src), n, false, 0); });
}

hipError_t __dcucc_hipMemcpyAsync(void* dst, const void* src, size_t n, hipMemcpyKind kind, hipStream_t s) {
    return rec([&] { return hipMemcpyAsync(dst, src, n, kind, s); },
               [&](HostCalls& h) {
                   record_copy(h, int(kind), where(kind, dst, src), addr(dst), addr(src), n, true, addr(s));
               });
}

hipError_t __dcucc_hipHostMalloc(void** p, size_t n, unsigned flags) {
    return rec([&] { return hipHostMalloc(p, n, flags); },
               [&](HostCalls& h) { record_host_alloc(h, addr(*p), n, flags); });
}

hipError_t __dcucc_hipHostRegister(void* p, size_t n, unsigned flags) {
    return rec([&] { return hipHostRegister(p, n, flags); },
               [&](HostCalls& h) { record_host_register(h, addr(p), n, flags); });
}

hipError_t __dcucc_hipHostFree(void* p) {
    return rec([&] { return hipHostFree(p); }, [&](HostCalls& h) { h.unpinned(addr(p)); });
}

hipError_t __dcucc_hipHostUnregister(void* p) {
    return rec([&] { return hipHostUnregister(p); }, [&](HostCalls& h) { h.unpinned(addr(p)); });
}

hipError_t __dcucc_hipHostGetDevicePointer(void** dev, void* host, unsigned flags) {
    return rec([&] { return hipHostGetDevicePointer(dev, host, flags); },
               [&](HostCalls& h) { h.device_pointer(addr(*dev), addr(host)); });
}

hipError_t __dcucc_hipStreamCreate(hipStream_t* s) {
    return rec([&] { return hipStreamCreate(s); }, [&](HostCalls& h) { h.stream_created(addr(*s)); });
}

hipError_t __dcucc_hipStreamCreateWithFlags(hipStream_t* s, unsigned flags) {
    return rec([&] { return hipStreamCreateWithFlags(s, flags); }, [&](HostCalls& h) { h.stream_created(addr(*s)); });
}

hipError_t __dcucc_hipStreamDestroy(hipStream_t s) {
    return rec([&] { return hipStreamDestroy(s); }, [&](HostCalls& h) { h.stream_destroyed(addr(s)); });
}

hipError_t __dcucc_hipDeviceSynchronize() {
    return rec([&] { return hipDeviceSynchronize(); }, [&](HostCalls& h) { h.sync_device(); });
}

hipError_t __dcucc_hipStreamSynchronize(hipStream_t s) {
    return rec([&] { return hipStreamSynchronize(s); }, [&](HostCalls& h) { h.sync_stream(addr(s)); });
}

hipError_t __dcucc_hipEventRecord(hipEvent_t e, hipStream_t s) {
    return rec([&] { return hipEventRecord(e, s); }, [&](HostCalls& h) { h.event_recorded(addr(e), addr(s)); });
}

hipError_t __dcucc_hipEventSynchronize(hipEvent_t e) {
    return rec([&] { return hipEventSynchronize(e); }, [&](HostCalls& h) { h.event_synchronized(addr(e)); });
}

}  // extern "C"
