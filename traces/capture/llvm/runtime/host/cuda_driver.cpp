// The CUDA driver's launch: cuModuleGetFunction names the function (kept here
// by handle), cuLaunchKernel launches it. The driver call has no parameter
// count, so an instrumented module exports one per kernel as a global,
// `__dcucc_nparams_<mangled>`; a module without it is not instrumented and
// its kernels run unchanged.
#include <cuda.h>

#include <map>

#include "cuda_backend.h"

// Declared by cuda.h only when the per-thread default stream is on.
extern "C" CUresult CUDAAPI cuLaunchKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                                unsigned by, unsigned bz, unsigned shmem, CUstream stream,
                                                void** params, void** extra);

namespace dcucc::host {
namespace {

struct Function {
    CUmodule module = nullptr;
    std::string mangled;
    bool looked_up = false;  // the module's parameter-count global was looked for
    bool instrumented = false;
    bool warned = false;  // that it is not
    int32_t nparams = -1;
    int64_t hidden_offset = -1;  // the hidden parameter's byte offset, when the driver says
};

// Under the capture's mutex.
std::map<CUfunction, Function>& functions() {
    static auto* m = new std::map<CUfunction, Function>;
    return *m;
}

// The names the pass has given the parameter-count global (the ABI's first).
const char* const kCountPrefixes[] = {"__dcucc_nparams_", "__dcucc_nparams."};

void look_up(CUfunction f, Function& fn) {
    fn.looked_up = true;
    if (fn.mangled.empty()) {
        const char* n = nullptr;
        if (cuFuncGetName(&n, f) == CUDA_SUCCESS && n) fn.mangled = n;
    }
    if (!fn.module && cuFuncGetModule(&fn.module, f) != CUDA_SUCCESS) fn.module = nullptr;
    if (!fn.module || fn.mangled.empty())
        throw CaptureError("cannot tell whether kernel " + (fn.mangled.empty() ? std::string("?") : fn.mangled) +
                           " is instrumented: the driver gives no module or name for it");
    for (const char* prefix : kCountPrefixes) {
        CUdeviceptr p = 0;
        size_t bytes = 0;
        if (cuModuleGetGlobal(&p, &bytes, fn.module, (prefix + fn.mangled).c_str()) != CUDA_SUCCESS) continue;
        int32_t n = -1;
        if (bytes != sizeof n || cuMemcpyDtoH(&n, p, sizeof n) != CUDA_SUCCESS || n < 0)
            throw CaptureError("cannot read the parameter count of " + fn.mangled + " from its module");
        fn.instrumented = true;
        fn.nparams = n;
        size_t off = 0, size = 0;
        if (cuFuncGetParamInfo(f, size_t(n), &off, &size) == CUDA_SUCCESS) fn.hidden_offset = int64_t(off);
        return;
    }
}

FuncAttrs attrs_of(CUfunction f) {
    FuncAttrs a;
    int lds = 0, regs = 0, local = 0;
    if (cuFuncGetAttribute(&lds, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f) != CUDA_SUCCESS ||
        cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f) != CUDA_SUCCESS ||
        cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f) != CUDA_SUCCESS)
        return a;
    a.ok = true;
    a.static_lds = uint64_t(lds);
    a.regs = uint32_t(regs);
    a.local = uint64_t(local);
    int carveout = -1;  // -1 unless cuFuncSetAttribute (or the runtime's call) set it
    if (cuFuncGetAttribute(&carveout, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, f) == CUDA_SUCCESS) a.carveout = carveout;
    return a;
}

CUresult launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                unsigned shmem, CUstream stream, void** params, void** extra, bool per_thread) {
    auto real = [&](void** p, void** e) {
        return per_thread ? cuLaunchKernel_ptsz(f, gx, gy, gz, bx, by, bz, shmem, stream, p, e)
                          : cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, stream, p, e);
    };
    return guarded([&] {
        Capture& c = process_capture();
        std::lock_guard<std::mutex> lock(c.mutex());
        Function& fn = functions()[f];
        if (!fn.looked_up) look_up(f, fn);
        if (!fn.instrumented) {
            if (!fn.warned)
                std::fprintf(stderr,
                             "dcucc: warning: %s is not instrumented (its module was not built with dcucc): "
                             "its launches run untraced\n",
                             fn.mangled.c_str());
            fn.warned = true;
            c.skip();
            return real(params, extra);
        }
        LaunchPlan p = c.plan(fn.mangled, fn.nparams);
        void* ours = per_thread && !stream ? static_cast<void*>(cudaStreamPerThread) : static_cast<void*>(stream);
        auto shape = [&] { return LaunchShape{{gx, gy, gz}, {bx, by, bz}, shmem, attrs_of(f)}; };
        if (params || !extra) {
            HiddenArgs a(p, params);
            return launch_with(
                c, cuda_backend(), p, ours, a, [&](HiddenArgs& h) { return real(h.args(), nullptr); }, shape);
        }
        PackedArgs a(p, extra, {CU_LAUNCH_PARAM_BUFFER_POINTER, CU_LAUNCH_PARAM_BUFFER_SIZE, CU_LAUNCH_PARAM_END},
                     fn.hidden_offset);
        return launch_with(
            c, cuda_backend(), p, ours, a, [&](PackedArgs& h) { return real(nullptr, h.extra()); }, shape);
    });
}

}  // namespace
}  // namespace dcucc::host

extern "C" CUresult __dcucc_cuModuleGetFunction(CUfunction* f, CUmodule m, const char* name, int32_t, const char*) {
    const CUresult r = cuModuleGetFunction(f, m, name);
    if (r == CUDA_SUCCESS && name)
        dcucc::host::guarded([&] {
            dcucc::host::Capture& c = dcucc::host::process_capture();
            std::lock_guard<std::mutex> lock(c.mutex());
            // A handle may come back for another kernel once its module is unloaded: start afresh.
            dcucc::host::functions()[*f] = dcucc::host::Function{m, name};
        });
    return r;
}

extern "C" CUresult __dcucc_cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                           unsigned by, unsigned bz, unsigned shmem, CUstream stream, void** params,
                                           void** extra, int32_t, const char*) {
    return dcucc::host::launch(f, gx, gy, gz, bx, by, bz, shmem, stream, params, extra, false);
}

extern "C" CUresult __dcucc_cuLaunchKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                                unsigned by, unsigned bz, unsigned shmem, CUstream stream,
                                                void** params, void** extra, int32_t, const char*) {
    return dcucc::host::launch(f, gx, gy, gz, bx, by, bz, shmem, stream, params, extra, true);
}
