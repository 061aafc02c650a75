// The program's host calls that dcucc records (docs/CAPTURE.md, "Host calls"): the host pass sends
// each call of these CUDA runtime and HIP entry points to a wrapper `__dcucc_NAME` of the same
// signature (cuda_host.cpp, hip_host.cpp), which makes the real call and, when it succeeds, records
// it through host_calls.h's recorder, dcutrace's. What a call records is here, in plain numbers,
// so that it is tested without a GPU; the two APIs share the values of their flags and copy kinds.
#pragma once

#include <cstdint>
#include <mutex>

#include "capture.h"

namespace dcucc::host {

// cudaMemcpyKind and hipMemcpyKind: 0 host to host, 1 h2d, 2 d2h, 3 d2d, 4 default (from the
// pointers). Where an address lies, for kind 4: 1 on the device, 0 in host memory, -1 unknown.
struct Whereabouts {
    int src = -1, dst = -1;
};
// The copy's direction; false for host to host, an unknown kind, or kind 4 with an unknown side:
// then the copy is counted as skipped, as dcutrace does.
bool copy_dir(int kind, const Whereabouts& w, dcutrace::CopyDir& dir);

// What each wrapped call records, after it returned success. Addresses and handles as numbers.
void record_copy(dcutrace::HostCalls& h, int kind, const Whereabouts& w, uint64_t dst, uint64_t src, uint64_t bytes,
                 bool async, uint64_t stream);
// cudaHostAlloc, hipHostMalloc (flags: 2 mapped, 4 write-combined).
void record_host_alloc(dcutrace::HostCalls& h, uint64_t ptr, uint64_t bytes, unsigned flags);
// cudaMallocHost: pinned, not mapped.
void record_malloc_host(dcutrace::HostCalls& h, uint64_t ptr, uint64_t bytes);
// cudaHostRegister, hipHostRegister (flag 2: mapped).
void record_host_register(dcutrace::HostCalls& h, uint64_t ptr, uint64_t bytes, unsigned flags);

template <class T>
uint64_t addr(T* p) {
    return uint64_t(reinterpret_cast<uintptr_t>(p));
}

// One wrapped call: `call()` runs as API time (host time stops), and when it returns 0 (success
// in both APIs) `record(HostCalls&)` runs and its statements go into the trace, the wave size
// asked of `gpu` if none is written yet. A failure of the capture itself ends the program (exit 3).
template <class Call, class Record>
auto recorded(Backend& gpu, Call&& call, Record&& record) {
    Capture& c = process_capture();
    {
        std::lock_guard<std::mutex> lock(c.mutex());
        c.host().api_enter(now_ns());
    }
    const auto r = call();
    std::lock_guard<std::mutex> lock(c.mutex());
    if (r == decltype(r)(0))
        guarded([&] {
            record(c.host());
            c.flush_host(gpu);
            return 0;
        });
    c.host().api_exit(now_ns());
    return r;
}

}  // namespace dcucc::host
