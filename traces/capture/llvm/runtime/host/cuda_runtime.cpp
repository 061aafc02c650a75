// The CUDA runtime's launch, as the pass rewrites it: the kernel stub's
// cudaLaunchKernel (cudaLaunchKernel_ptsz under --default-stream per-thread)
// becomes __dcucc_cudaLaunchKernel with the kernel's parameter count and
// mangled name after the original arguments.
#include <cuda_runtime_api.h>

#include "cuda_backend.h"

// Declared by cuda_runtime_api.h only when the per-thread default stream is
// on; the runtime library always has it.
extern "C" cudaError_t CUDARTAPI cudaLaunchKernel_ptsz(const void* func, dim3 grid, dim3 block, void** args,
                                                       size_t shmem, cudaStream_t stream);

namespace dcucc::host {
namespace {

std::string name_of(const void* func, const char* mangled) {
    if (mangled) return mangled;
    const char* n = nullptr;
    return cudaFuncGetName(&n, func) == cudaSuccess && n ? n : "";
}

FuncAttrs attrs_of(const void* func) {
    cudaFuncAttributes a{};
    FuncAttrs f;
    if (cudaFuncGetAttributes(&a, func) != cudaSuccess) return f;
    f.ok = true;
    f.static_lds = a.sharedSizeBytes;
    f.regs = uint32_t(a.numRegs);
    f.local = a.localSizeBytes;
    f.carveout = a.preferredShmemCarveout;  // -1 unless cudaFuncSetAttribute set it
    return f;
}

cudaError_t launch(const void* func, dim3 grid, dim3 block, void** args, size_t shmem, cudaStream_t stream,
                   int32_t nargs, const char* mangled, bool per_thread) {
    return guarded([&] {
        Capture& c = process_capture();
        std::lock_guard<std::mutex> lock(c.mutex());
        LaunchPlan p = c.plan(name_of(func, mangled), nargs);
        HiddenArgs a(p, args);
        // Stream 0 of a per-thread launch is the thread's stream, not the legacy one.
        cudaStream_t ours = per_thread && !stream ? cudaStreamPerThread : stream;
        return launch_with(
            c, cuda_backend(), p, ours, a,
            [&](HiddenArgs& h) {
                return per_thread ? cudaLaunchKernel_ptsz(func, grid, block, h.args(), shmem, stream)
                                  : cudaLaunchKernel(func, grid, block, h.args(), shmem, stream);
            },
            [&] {
                return LaunchShape{{grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, shmem, attrs_of(func)};
            });
    });
}

}  // namespace
}  // namespace dcucc::host

extern "C" cudaError_t __dcucc_cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shmem,
                                                cudaStream_t stream, int32_t nargs, const char* mangled) {
    return dcucc::host::launch(func, grid, block, args, shmem, stream, nargs, mangled, false);
}

extern "C" cudaError_t __dcucc_cudaLaunchKernel_ptsz(const void* func, dim3 grid, dim3 block, void** args, size_t shmem,
                                                     cudaStream_t stream, int32_t nargs, const char* mangled) {
    return dcucc::host::launch(func, grid, block, args, shmem, stream, nargs, mangled, true);
}
