// Counting patches for the local-memory probe (probe_tool.cpp): every lane's
// call is counted by class, by flags and by SASS offset, with the range of
// addresses seen, so one run says which instructions the Sanitizer reports.
#include <sanitizer_patching.h>

#include "probe_counts.h"

namespace {

__device__ void count(void* u, int cls, uint64_t pc, void* ptr, uint32_t flags) {
    ProbeCounts* p = static_cast<ProbeCounts*>(u);
    if (!p) return;
    atomicAdd(&p->calls[cls][flags & (kProbeFlags - 1)], 1ull);
    atomicOr(&p->flag_or[cls], flags);
    atomicMin(&p->ptr_min[cls], (unsigned long long)ptr);
    atomicMax(&p->ptr_max[cls], (unsigned long long)ptr);
    const uint64_t slot = (pc - p->base) / 16;
    if (pc >= p->base && slot < kProbeSlots) atomicAdd(&p->pc_calls[cls][slot], 1u);
}

}  // namespace

extern "C" __device__ __noinline__ SanitizerPatchResult probe_global(void* u, uint64_t pc, void* ptr, uint32_t n,
                                                                     uint32_t flags, const void*) {
    count(u, 0, pc, ptr, flags);
    return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult probe_shared(void* u, uint64_t pc, void* ptr, uint32_t n,
                                                                     uint32_t flags, const void*) {
    count(u, 1, pc, ptr, flags);
    return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult probe_local(void* u, uint64_t pc, void* ptr, uint32_t n,
                                                                    uint32_t flags, const void*) {
    count(u, 2, pc, ptr, flags);
    return SANITIZER_PATCH_SUCCESS;
}
