// HIP's runtime launches, as the pass rewrites them: the kernel stub's
// hipLaunchKernel, and hipExtLaunchKernel (hipExtLaunchKernelGGL), become
// __dcucc_* with the kernel's parameter count and mangled name appended.
#include <hip/hip_runtime_api.h>

#include "hip_backend.h"

// hip_ext.h does not compile outside hipcc; its declaration, as it is there.
extern "C" hipError_t hipExtLaunchKernel(const void* function_address, dim3 numBlocks, dim3 dimBlocks, void** args,
                                         size_t sharedMemBytes, hipStream_t stream, hipEvent_t startEvent,
                                         hipEvent_t stopEvent, int flags);

namespace dcucc::host {
namespace {

std::string name_of(const void* func, hipStream_t stream, const char* mangled) {
    if (mangled) return mangled;
    const char* n = hipKernelNameRefByPtr(func, stream);
    return n ? n : "";
}

FuncAttrs attrs_of(const void* func) {
    hipFuncAttributes a{};
    FuncAttrs f;
    if (hipFuncGetAttributes(&a, func) != hipSuccess) return f;
    f.ok = true;
    f.static_lds = a.sharedSizeBytes;
    f.regs = uint32_t(a.numRegs);
    f.local = a.localSizeBytes;
    return f;
}

template <class Launch>
hipError_t launch(const void* func, dim3 grid, dim3 block, void** args, size_t shmem, hipStream_t stream, int32_t nargs,
                  const char* mangled, Launch&& real) {
    return guarded([&] {
        Capture& c = process_capture();
        std::lock_guard<std::mutex> lock(c.mutex());
        LaunchPlan p = c.plan(name_of(func, stream, mangled), nargs);
        HiddenArgs a(p, args);
        return launch_with(
            c, hip_backend(), p, stream, a, [&](HiddenArgs& h) { return real(h.args()); },
            [&] {
                return LaunchShape{{grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, shmem, attrs_of(func)};
            });
    });
}

}  // namespace
}  // namespace dcucc::host

extern "C" hipError_t __dcucc_hipLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shmem,
                                              hipStream_t stream, int32_t nargs, const char* mangled) {
    return dcucc::host::launch(func, grid, block, args, shmem, stream, nargs, mangled,
                               [&](void** a) { return hipLaunchKernel(func, grid, block, a, shmem, stream); });
}

extern "C" hipError_t __dcucc_hipExtLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shmem,
                                                 hipStream_t stream, hipEvent_t start, hipEvent_t stop, int flags,
                                                 int32_t nargs, const char* mangled) {
    return dcucc::host::launch(func, grid, block, args, shmem, stream, nargs, mangled, [&](void** a) {
        return hipExtLaunchKernel(func, grid, block, a, shmem, stream, start, stop, flags);
    });
}
