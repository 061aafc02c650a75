// The record of the program's host side (docs/CAPTURE.md, "Host calls"), dcutrace's and dcucc's: the copies, syncs,
// launch streams, host time and mapped ranges of docs/trace-format.md's host statements, in program
// order. The tool (tool.cpp) feeds it what the Sanitizer's callbacks report, as plain numbers, so
// this part builds and is tested without CUDA. Handles (streams, events) are the program's own
// CUstream and CUevent values.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "traces/format/record.h"

namespace dcutrace {

using dcusim::trace::CopyDir;
using dcusim::trace::HostMemKind;

// The flags of cudaHostAlloc and cuMemHostAlloc (the same values in both APIs).
constexpr unsigned kHostAllocMapped = 0x2, kHostAllocWriteCombined = 0x4;
// cudaHostRegister's and cuMemHostRegister's.
constexpr unsigned kHostRegisterMapped = 0x2;

// What a copy from or to the allocation counts as: write-combined wins over mapped (the copy reads
// it as write-combined memory; a kernel reaching it still sees it mapped).
HostMemKind kind_of_host_alloc(unsigned flags);
inline HostMemKind kind_of_host_register(unsigned flags) {
    return flags & kHostRegisterMapped ? HostMemKind::Mapped : HostMemKind::Pinned;
}

// The parts of [base, base + bytes) that no range of `taken` covers, in address order.
std::vector<std::pair<uint64_t, uint64_t>> uncovered(const std::map<uint64_t, uint64_t>& taken, uint64_t base,
                                                     uint64_t bytes);

struct HostCallCounts {
    uint64_t copies = 0, syncs = 0, maps = 0, launches = 0, host_ns = 0;
    uint64_t skipped_copies = 0;  // host to host, or of no known direction: not in the trace
    uint64_t stream_waits = 0;    // cudaStreamWaitEvent: a dependency the grammar cannot say
    uint64_t streams = 0;         // streams the program created
};

class HostCalls {
public:
    using Emit = std::function<void(const dcusim::trace::Record&)>;
    explicit HostCalls(Emit emit) : emit_(std::move(emit)) {}

    // Host time is the time outside CUDA calls, from the program's first call on (before it: the
    // process's start, the tool's and the Sanitizer's own, not comparable to a run without them):
    // every API call, nested or not, enters and exits.
    void api_enter(uint64_t now_ns);
    void api_exit(uint64_t now_ns);
    bool in_api() const { return depth_ > 0; }

    // Page-locked host memory the program allocated or registered; `mapped`: kernels may reach it
    // (a `map` statement for the part no earlier one covers).
    void pinned(uint64_t base, uint64_t bytes, HostMemKind kind, bool mapped);
    void unpinned(uint64_t base);
    // A device pointer the program asked for to host address `host` (cudaHostGetDevicePointer): the
    // range of page-locked memory `host` lies in, seen from the device at `dev`, is mapped (a `map`
    // for the part no earlier one covers; under unified addressing `dev` == `host`, already mapped).
    void device_pointer(uint64_t dev, uint64_t host);
    // The kind of host memory at `addr`: pageable unless the program pinned it.
    HostMemKind kind_at(uint64_t addr) const;

    // A stream the program created: numbered 1, 2, ... in creation order. Any other handle (the
    // default stream, legacy or per-thread) is stream 0.
    void stream_created(uint64_t handle);
    // A destroyed stream's handle, when the runtime hands it out again, is a new stream.
    void stream_destroyed(uint64_t handle) { streams_.erase(handle); }
    uint64_t stream_number(uint64_t handle) const;

    void copy(CopyDir dir, uint64_t src, uint64_t dst, uint64_t bytes, bool async, uint64_t stream_handle);
    void sync_stream(uint64_t handle);
    void sync_device();
    void event_recorded(uint64_t event, uint64_t stream_handle);
    void event_synchronized(uint64_t event);
    void stream_waited() { ++counts_.stream_waits; }
    void copy_skipped() { ++counts_.skipped_copies; }
    // A kernel launch on `stream_handle`: the host time before it is written; returns its stream.
    uint64_t launch(uint64_t stream_handle);

    const HostCallCounts& counts() const { return counts_; }

private:
    void flush_host();
    void map_range(uint64_t base, uint64_t bytes);
    void statement(const dcusim::trace::Record& r);
    void sync(bool has_stream, uint64_t stream);

    Emit emit_;
    uint64_t since_ns_ = 0;    // when the program's own code last got control back
    bool started_ = false;     // the program's first call has come
    uint64_t pending_ns_ = 0;  // host time not yet written
    int depth_ = 0;
    struct Pinned {
        uint64_t end;
        HostMemKind kind;
    };
    std::map<uint64_t, Pinned> pinned_;            // base -> allocation
    std::map<uint64_t, uint64_t> mapped_;          // ranges already written as `map`: base -> end
    std::map<uint64_t, uint64_t> streams_;         // handle -> number
    std::map<uint64_t, uint64_t> event_streams_;   // event -> stream number it was last recorded on
    bool last_was_sync_ = false;
    dcusim::trace::HostCall last_sync_;
    HostCallCounts counts_;
};

}  // namespace dcutrace
