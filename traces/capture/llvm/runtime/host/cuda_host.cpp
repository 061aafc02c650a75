// The CUDA runtime's host calls that dcucc records (host_api.h): the pass sends each call of these
// to `__dcucc_NAME`, which makes the real call and records it. Other calls (cudaMemset, cudaMalloc,
// the per-thread-stream `_ptds`/`_ptsz` forms, the driver API's) run unrecorded.
#include <cuda_runtime_api.h>

#include "cuda_backend.h"
#include "host_api.h"

namespace dcucc::host {
namespace {

using dcutrace::HostCalls;

// For cudaMemcpyDefault: where the runtime says an address lies.
int on_device(const void* p) {
    cudaPointerAttributes a{};
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        (void)cudaGetLastError();  // not the program's error
        return -1;
    }
    return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged ? 1 : 0;
}

Whereabouts where(cudaMemcpyKind kind, const void* dst, const void* src) {
    return kind == cudaMemcpyDefault ? Whereabouts{on_device(src), on_device(dst)} : Whereabouts{};
}

template <class Call, class Record>
cudaError_t rec(Call&& call, Record&& record) {
    return recorded(cuda_backend(), call, record);
}

}  // namespace
}  // namespace dcucc::host

using namespace dcucc::host;
using dcutrace::HostCalls;

extern "C" {

cudaError_t __dcucc_cudaMemcpy(void* dst, const void* src, size_t n, cudaMemcpyKind kind) {
    return rec([&] { return cudaMemcpy(dst, src, n, kind); },
               [&](HostCalls& h) { record_copy(h, int(kind), where(kind, dst, src), addr(dst), addr(src), n, false, 0); });
}

cudaError_t __dcucc_cudaMemcpyAsync(void* dst, const void* src, size_t n, cudaMemcpyKind kind, cudaStream_t s) {
    return rec([&] { return cudaMemcpyAsync(dst, src, n, kind, s); },
               [&](HostCalls& h) {
                   record_copy(h, int(kind), where(kind, dst, src), addr(dst), addr(src), n, true, addr(s));
               });
}

cudaError_t __dcucc_cudaHostAlloc(void** p, size_t n, unsigned flags) {
    return rec([&] { return cudaHostAlloc(p, n, flags); },
               [&](HostCalls& h) { record_host_alloc(h, addr(*p), n, flags); });
}

cudaError_t __dcucc_cudaMallocHost(void** p, size_t n) {
    return rec([&] { return cudaMallocHost(p, n); }, [&](HostCalls& h) { record_malloc_host(h, addr(*p), n); });
}

cudaError_t __dcucc_cudaHostRegister(void* p, size_t n, unsigned flags) {
    return rec([&] { return cudaHostRegister(p, n, flags); },
               [&](HostCalls& h) { record_host_register(h, addr(p), n, flags); });
}

cudaError_t __dcucc_cudaFreeHost(void* p) {
    return rec([&] { return cudaFreeHost(p); }, [&](HostCalls& h) { h.unpinned(addr(p)); });
}

cudaError_t __dcucc_cudaHostUnregister(void* p) {
    return rec([&] { return cudaHostUnregister(p); }, [&](HostCalls& h) { h.unpinned(addr(p)); });
}

cudaError_t __dcucc_cudaHostGetDevicePointer(void** dev, void* host, unsigned flags) {
    return rec([&] { return cudaHostGetDevicePointer(dev, host, flags); },
               [&](HostCalls& h) { h.device_pointer(addr(*dev), addr(host)); });
}

cudaError_t __dcucc_cudaStreamCreate(cudaStream_t* s) {
    return rec([&] { return cudaStreamCreate(s); }, [&](HostCalls& h) { h.stream_created(addr(*s)); });
}

cudaError_t __dcucc_cudaStreamCreateWithFlags(cudaStream_t* s, unsigned flags) {
    return rec([&] { return cudaStreamCreateWithFlags(s, flags); }, [&](HostCalls& h) { h.stream_created(addr(*s)); });
}

cudaError_t __dcucc_cudaStreamDestroy(cudaStream_t s) {
    return rec([&] { return cudaStreamDestroy(s); }, [&](HostCalls& h) { h.stream_destroyed(addr(s)); });
}

cudaError_t __dcucc_cudaDeviceSynchronize() {
    return rec([&] { return cudaDeviceSynchronize(); }, [&](HostCalls& h) { h.sync_device(); });
}

cudaError_t __dcucc_cudaStreamSynchronize(cudaStream_t s) {
    return rec([&] { return cudaStreamSynchronize(s); }, [&](HostCalls& h) { h.sync_stream(addr(s)); });
}

cudaError_t __dcucc_cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
    return rec([&] { return cudaEventRecord(e, s); }, [&](HostCalls& h) { h.event_recorded(addr(e), addr(s)); });
}

cudaError_t __dcucc_cudaEventSynchronize(cudaEvent_t e) {
    return rec([&] { return cudaEventSynchronize(e); }, [&](HostCalls& h) { h.event_synchronized(addr(e)); });
}

}  // extern "C"
