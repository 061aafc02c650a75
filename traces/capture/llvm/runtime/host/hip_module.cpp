// HIP's module launches: hipModuleGetFunction names the function (kept here
// by handle), hipModuleLaunchKernel and hipExtModuleLaunchKernel launch it.
// The call has no parameter count, so an instrumented module exports one per
// kernel as a global, `__dcucc_nparams_<mangled>`; a module without it is not
// instrumented and its kernels run unchanged.
#include <hip/hip_runtime_api.h>

#include <map>

#include "hip_backend.h"

// hip_ext.h does not compile outside hipcc; its declaration, as it is there
// (C++ linkage, as the library exports it).
hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY,
                                    uint32_t globalWorkSizeZ, uint32_t localWorkSizeX, uint32_t localWorkSizeY,
                                    uint32_t localWorkSizeZ, size_t sharedMemBytes, hipStream_t hStream,
                                    void** kernelParams, void** extra, hipEvent_t startEvent, hipEvent_t stopEvent,
                                    uint32_t flags);

namespace dcucc::host {
namespace {

struct Function {
    hipModule_t module = nullptr;
    std::string mangled;
    bool looked_up = false;  // the module's parameter-count global was looked for
    bool instrumented = false;
    bool warned = false;  // that it is not
    int32_t nparams = -1;
};

// Under the capture's mutex.
std::map<hipFunction_t, Function>& functions() {
    static auto* m = new std::map<hipFunction_t, Function>;
    return *m;
}

const char* const kCountPrefixes[] = {"__dcucc_nparams_", "__dcucc_nparams."};

void look_up(hipFunction_t f, Function& fn) {
    fn.looked_up = true;
    if (fn.mangled.empty())
        if (const char* n = hipKernelNameRef(f)) fn.mangled = n;
    // HIP cannot tell a function's module: only hipModuleGetFunction's own record says.
    if (!fn.module)
        throw CaptureError("cannot tell whether kernel " + (fn.mangled.empty() ? std::string("?") : fn.mangled) +
                           " is instrumented: its function did not come from hipModuleGetFunction");
    for (const char* prefix : kCountPrefixes) {
        hipDeviceptr_t p = nullptr;
        size_t bytes = 0;
        if (hipModuleGetGlobal(&p, &bytes, fn.module, (prefix + fn.mangled).c_str()) != hipSuccess) continue;
        int32_t n = -1;
        if (bytes != sizeof n || hipMemcpyDtoH(&n, p, sizeof n) != hipSuccess || n < 0)
            throw CaptureError("cannot read the parameter count of " + fn.mangled + " from its module");
        fn.instrumented = true;
        fn.nparams = n;
        return;
    }
}

FuncAttrs attrs_of(hipFunction_t f) {
    FuncAttrs a;
    int lds = 0, regs = 0, local = 0;
    if (hipFuncGetAttribute(&lds, HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f) != hipSuccess ||
        hipFuncGetAttribute(&regs, HIP_FUNC_ATTRIBUTE_NUM_REGS, f) != hipSuccess ||
        hipFuncGetAttribute(&local, HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f) != hipSuccess)
        return a;
    a.ok = true;
    a.static_lds = uint64_t(lds);
    a.regs = uint32_t(regs);
    a.local = uint64_t(local);
    return a;
}

// `real(params, extra)` makes the call; grid in blocks.
template <class Launch>
hipError_t launch(hipFunction_t f, const LaunchShape& shape, hipStream_t stream, void** params, void** extra,
                  Launch&& real) {
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
        auto full_shape = [&] {
            LaunchShape s = shape;
            s.attrs = attrs_of(f);
            return s;
        };
        if (params || !extra) {
            HiddenArgs a(p, params);
            return launch_with(
                c, hip_backend(), p, stream, a, [&](HiddenArgs& h) { return real(h.args(), nullptr); }, full_shape);
        }
        PackedArgs a(p, extra, {HIP_LAUNCH_PARAM_BUFFER_POINTER, HIP_LAUNCH_PARAM_BUFFER_SIZE, HIP_LAUNCH_PARAM_END});
        return launch_with(
            c, hip_backend(), p, stream, a, [&](PackedArgs& h) { return real(nullptr, h.extra()); }, full_shape);
    });
}

}  // namespace
}  // namespace dcucc::host

extern "C" hipError_t __dcucc_hipModuleGetFunction(hipFunction_t* f, hipModule_t m, const char* name, int32_t,
                                                   const char*) {
    const hipError_t r = hipModuleGetFunction(f, m, name);
    if (r == hipSuccess && name)
        dcucc::host::guarded([&] {
            dcucc::host::Capture& c = dcucc::host::process_capture();
            std::lock_guard<std::mutex> lock(c.mutex());
            // A handle may come back for another kernel once its module is unloaded: start afresh.
            dcucc::host::functions()[*f] = dcucc::host::Function{m, name};
        });
    return r;
}

extern "C" hipError_t __dcucc_hipModuleLaunchKernel(hipFunction_t f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                                    unsigned by, unsigned bz, unsigned shmem, hipStream_t stream,
                                                    void** params, void** extra, int32_t, const char*) {
    const dcucc::host::LaunchShape shape{{gx, gy, gz}, {bx, by, bz}, shmem, {}};
    return dcucc::host::launch(f, shape, stream, params, extra, [&](void** p, void** e) {
        return hipModuleLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, stream, p, e);
    });
}

// Its sizes are in work-items: the grid has ceil(global / local) blocks.
extern "C" hipError_t __dcucc_hipExtModuleLaunchKernel(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz,
                                                       uint32_t lx, uint32_t ly, uint32_t lz, size_t shmem,
                                                       hipStream_t stream, void** params, void** extra,
                                                       hipEvent_t start, hipEvent_t stop, uint32_t flags, int32_t,
                                                       const char*) {
    auto blocks = [](uint32_t g, uint32_t l) { return l ? (g + l - 1) / l : 0; };
    const dcucc::host::LaunchShape shape{{blocks(gx, lx), blocks(gy, ly), blocks(gz, lz)}, {lx, ly, lz}, shmem, {}};
    return dcucc::host::launch(f, shape, stream, params, extra, [&](void** p, void** e) {
        return hipExtModuleLaunchKernel(f, gx, gy, gz, lx, ly, lz, shmem, stream, p, e, start, stop, flags);
    });
}
