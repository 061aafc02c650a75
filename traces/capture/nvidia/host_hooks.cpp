#include "host_hooks.h"

#include <chrono>

namespace dcutrace {

namespace {

// The parameters of the calls read here, as the API declares them (generated_cuda_runtime_api_meta.h
// and generated_cuda_meta.h give the same layouts): only the leading members that are read.
struct AllocParams {  // cudaHostAlloc, cuMemHostAlloc
    void** out;
    size_t bytes;
    unsigned flags;
};
struct MallocHostParams {  // cudaMallocHost, cuMemAllocHost_v2
    void** out;
    size_t bytes;
};
struct RegisterParams {  // cudaHostRegister, cuMemHostRegister, cuMemHostRegister_v2
    void* ptr;
    size_t bytes;
    unsigned flags;
};
struct PtrParams {  // cudaFreeHost, cudaHostUnregister, cuMemFreeHost, cuMemHostUnregister
    void* ptr;
};
struct StreamCreateParams {  // cudaStreamCreate*, cuStreamCreate*: the new stream comes back first
    void** out;
};

uint64_t handle(const void* p) { return uint64_t(reinterpret_cast<uintptr_t>(p)); }

const char* dir_name(CopyDir d) { return dcusim::trace::copy_dir_name(d); }

}  // namespace

uint64_t now_ns() {
    return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

HostHooks::HostHooks(HostCalls::Emit emit, std::FILE* log) : calls_(std::move(emit)), log_(log) {}

HostHooks::~HostHooks() {
    if (log_) std::fclose(log_);
}

void HostHooks::enable(Sanitizer_SubscriberHandle sub) {
    for (auto d : {SANITIZER_CB_DOMAIN_RUNTIME_API, SANITIZER_CB_DOMAIN_DRIVER_API, SANITIZER_CB_DOMAIN_MEMCPY,
                   SANITIZER_CB_DOMAIN_SYNCHRONIZE, SANITIZER_CB_DOMAIN_EVENTS})
        sanitizerEnableDomain(1, sub, d);
}

void HostHooks::on_api(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, const Sanitizer_CallbackData& cb) {
    const bool runtime = domain == SANITIZER_CB_DOMAIN_RUNTIME_API;
    if (cb.callbackSite == SANITIZER_API_ENTER) {
        if (runtime) ++runtime_depth_;
        calls_.api_enter(now_ns());
        return;
    }
    // cudaError_t and CUresult: 0 is success.
    const bool ok = cb.functionReturnValue && *static_cast<const int*>(cb.functionReturnValue) == 0;
    if (ok && cb.functionParams) {
        if (runtime) runtime_exit(cbid, cb.functionParams);
        else if (runtime_depth_ == 0) driver_exit(cbid, cb.functionParams);
    }
    if (runtime && runtime_depth_ > 0) --runtime_depth_;
    calls_.api_exit(now_ns());
}

void HostHooks::runtime_exit(Sanitizer_CallbackId cbid, const void* params) {
    switch (cbid) {
    case SANITIZER_CBID_RUNTIME_API_cudaHostAlloc: {
        const auto& p = *static_cast<const AllocParams*>(params);
        return allocated("cudaHostAlloc", *p.out, p.bytes, kind_of_host_alloc(p.flags), p.flags & kHostAllocMapped, p.flags);
    }
    case SANITIZER_CBID_RUNTIME_API_cudaMallocHost: {
        const auto& p = *static_cast<const MallocHostParams*>(params);
        return allocated("cudaMallocHost", *p.out, p.bytes, HostMemKind::Pinned, false, 0);
    }
    case SANITIZER_CBID_RUNTIME_API_cudaHostRegister: {
        const auto& p = *static_cast<const RegisterParams*>(params);
        return allocated("cudaHostRegister", p.ptr, p.bytes, kind_of_host_register(p.flags), p.flags & kHostRegisterMapped, p.flags);
    }
    case SANITIZER_CBID_RUNTIME_API_cudaFreeHost:
    case SANITIZER_CBID_RUNTIME_API_cudaHostUnregister:
        return calls_.unpinned(handle(static_cast<const PtrParams*>(params)->ptr));
    case SANITIZER_CBID_RUNTIME_API_cudaStreamCreate:
    case SANITIZER_CBID_RUNTIME_API_cudaStreamCreateWithFlags:
    case SANITIZER_CBID_RUNTIME_API_cudaStreamCreateWithPriority:
        return stream_created(*static_cast<const StreamCreateParams*>(params)->out);
    default: return;
    }
}

void HostHooks::driver_exit(Sanitizer_CallbackId cbid, const void* params) {
    switch (cbid) {
    case SANITIZER_CBID_DRIVER_API_cuMemHostAlloc: {
        const auto& p = *static_cast<const AllocParams*>(params);
        return allocated("cuMemHostAlloc", *p.out, p.bytes, kind_of_host_alloc(p.flags), p.flags & kHostAllocMapped, p.flags);
    }
    case SANITIZER_CBID_DRIVER_API_cuMemAllocHost_v2: {
        const auto& p = *static_cast<const MallocHostParams*>(params);
        return allocated("cuMemAllocHost", *p.out, p.bytes, HostMemKind::Pinned, false, 0);
    }
    case SANITIZER_CBID_DRIVER_API_cuMemHostRegister:
    case SANITIZER_CBID_DRIVER_API_cuMemHostRegister_v2: {
        const auto& p = *static_cast<const RegisterParams*>(params);
        return allocated("cuMemHostRegister", p.ptr, p.bytes, kind_of_host_register(p.flags), p.flags & kHostRegisterMapped, p.flags);
    }
    case SANITIZER_CBID_DRIVER_API_cuMemFreeHost:
    case SANITIZER_CBID_DRIVER_API_cuMemHostUnregister:
        return calls_.unpinned(handle(static_cast<const PtrParams*>(params)->ptr));
    case SANITIZER_CBID_DRIVER_API_cuStreamCreate:
    case SANITIZER_CBID_DRIVER_API_cuStreamCreateWithPriority:
        return stream_created(*static_cast<const StreamCreateParams*>(params)->out);
    default: return;
    }
}

void HostHooks::allocated(const char* api, void* base, size_t bytes, HostMemKind kind, bool mapped, unsigned flags) {
    if (log_)
        std::fprintf(log_, "alloc %s 0x%llx %zu flags 0x%x -> %s%s\n", api, (unsigned long long)handle(base), bytes, flags,
                     dcusim::trace::host_mem_name(kind), mapped ? " map" : "");
    calls_.pinned(handle(base), bytes, kind, mapped);
}

void HostHooks::stream_created(void* h) {
    calls_.stream_created(handle(h));
    if (log_) std::fprintf(log_, "stream 0x%llx -> %llu\n", (unsigned long long)handle(h), (unsigned long long)calls_.stream_number(handle(h)));
}

void HostHooks::on_memcpy(const Sanitizer_MemcpyData& m) {
    CopyDir dir;
    switch (m.direction) {
    case SANITIZER_MEMCPY_DIRECTION_HOST_TO_DEVICE: dir = CopyDir::H2D; break;
    case SANITIZER_MEMCPY_DIRECTION_DEVICE_TO_HOST: dir = CopyDir::D2H; break;
    case SANITIZER_MEMCPY_DIRECTION_DEVICE_TO_DEVICE: dir = CopyDir::D2D; break;
    default:
        calls_.copy_skipped();
        if (log_) std::fprintf(log_, "copy skipped: direction %d, %llu bytes\n", int(m.direction), (unsigned long long)m.size);
        return;
    }
    // The stream the program named; the source's or destination's where that one is not the program's.
    uint64_t stream = handle(m.apiStream);
    for (CUstream s : {m.dstStream, m.srcStream})
        if (calls_.stream_number(stream) == 0 && calls_.stream_number(handle(s)) != 0) stream = handle(s);
    calls_.copy(dir, m.srcAddress, m.dstAddress, m.size, m.isAsync != 0, stream);
    if (log_)
        std::fprintf(log_, "copy %s 0x%llx -> 0x%llx %llu async %u streams api 0x%llx src 0x%llx dst 0x%llx -> %s stream %llu\n",
                     dir_name(dir), (unsigned long long)m.srcAddress, (unsigned long long)m.dstAddress,
                     (unsigned long long)m.size, m.isAsync, (unsigned long long)handle(m.apiStream),
                     (unsigned long long)handle(m.srcStream), (unsigned long long)handle(m.dstStream),
                     dcusim::trace::host_mem_name(dir == CopyDir::D2D ? HostMemKind::Device
                                                                       : calls_.kind_at(dir == CopyDir::H2D ? m.srcAddress : m.dstAddress)),
                     (unsigned long long)calls_.stream_number(stream));
}

void HostHooks::on_sync(Sanitizer_CallbackId cbid, const Sanitizer_SynchronizeData& s) {
    if (cbid == SANITIZER_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED) calls_.sync_stream(handle(s.stream));
    else if (cbid == SANITIZER_CBID_SYNCHRONIZE_CONTEXT_SYNCHRONIZED) calls_.sync_device();
    else return;
    if (log_)
        std::fprintf(log_, "sync %s 0x%llx\n", cbid == SANITIZER_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED ? "stream" : "device",
                     (unsigned long long)handle(s.stream));
}

void HostHooks::on_event(Sanitizer_CallbackId cbid, const Sanitizer_EventData& e) {
    if (cbid == SANITIZER_CBID_EVENTS_RECORD) calls_.event_recorded(handle(e.event), handle(e.stream));
    else if (cbid == SANITIZER_CBID_EVENTS_SYNCHRONIZE) calls_.event_synchronized(handle(e.event));
    else if (cbid == SANITIZER_CBID_EVENTS_STREAM_WAIT) calls_.stream_waited();
    else return;
    if (log_) std::fprintf(log_, "event %u 0x%llx stream 0x%llx\n", unsigned(cbid), (unsigned long long)handle(e.event), (unsigned long long)handle(e.stream));
}

void HostHooks::on_host_memory(Sanitizer_CallbackId cbid, const Sanitizer_ResourceMemoryData& m) {
    if (log_)
        std::fprintf(log_, "resource %s 0x%llx %llu sanitizer flags 0x%x\n",
                     cbid == SANITIZER_CBID_RESOURCE_HOST_MEMORY_ALLOC ? "host alloc" : "host free",
                     (unsigned long long)m.address, (unsigned long long)m.size, m.flags);
    // The allocation call's exit, which comes after, gives the kind; this covers calls not read above.
    if (cbid == SANITIZER_CBID_RESOURCE_HOST_MEMORY_ALLOC && calls_.kind_at(m.address) == HostMemKind::Pageable)
        calls_.pinned(m.address, m.size, HostMemKind::Pinned, false);
    else if (cbid == SANITIZER_CBID_RESOURCE_HOST_MEMORY_FREE)
        calls_.unpinned(m.address);
}

uint64_t HostHooks::on_launch(CUstream stream) {
    const uint64_t s = calls_.launch(handle(stream));
    if (log_) std::fprintf(log_, "launch stream 0x%llx -> %llu\n", (unsigned long long)handle(stream), (unsigned long long)s);
    return s;
}

}  // namespace dcutrace
