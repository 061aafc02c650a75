#include "host_api.h"

namespace dcucc::host {

using dcutrace::CopyDir;

bool copy_dir(int kind, const Whereabouts& w, CopyDir& dir) {
    switch (kind) {
    case 1: dir = CopyDir::H2D; return true;
    case 2: dir = CopyDir::D2H; return true;
    case 3: dir = CopyDir::D2D; return true;
    case 4:
        if (w.src < 0 || w.dst < 0 || (w.src == 0 && w.dst == 0)) return false;
        dir = w.src ? (w.dst ? CopyDir::D2D : CopyDir::D2H) : CopyDir::H2D;
        return true;
    default: return false;
    }
}

void record_copy(dcutrace::HostCalls& h, int kind, const Whereabouts& w, uint64_t dst, uint64_t src, uint64_t bytes,
                 bool async, uint64_t stream) {
    CopyDir dir;
    if (!copy_dir(kind, w, dir)) return h.copy_skipped();
    h.copy(dir, src, dst, bytes, async, stream);
}

void record_host_alloc(dcutrace::HostCalls& h, uint64_t ptr, uint64_t bytes, unsigned flags) {
    h.pinned(ptr, bytes, dcutrace::kind_of_host_alloc(flags), (flags & dcutrace::kHostAllocMapped) != 0);
}

void record_malloc_host(dcutrace::HostCalls& h, uint64_t ptr, uint64_t bytes) {
    h.pinned(ptr, bytes, dcutrace::HostMemKind::Pinned, false);
}

void record_host_register(dcutrace::HostCalls& h, uint64_t ptr, uint64_t bytes, unsigned flags) {
    h.pinned(ptr, bytes, dcutrace::kind_of_host_register(flags), (flags & dcutrace::kHostRegisterMapped) != 0);
}

}  // namespace dcucc::host

// Around every other CUDA runtime or HIP call (the host pass's `dcucc.api.NAME`): API time.
extern "C" void __dcucc_api_enter() {
    dcucc::host::Capture& c = dcucc::host::process_capture();
    std::lock_guard<std::mutex> lock(c.mutex());
    c.host().api_enter(dcucc::host::now_ns());
}

extern "C" void __dcucc_api_exit() {
    dcucc::host::Capture& c = dcucc::host::process_capture();
    std::lock_guard<std::mutex> lock(c.mutex());
    c.host().api_exit(dcucc::host::now_ns());
}
