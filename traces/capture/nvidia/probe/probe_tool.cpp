// The local-memory probe: an LD_PRELOAD library, like dcutrace's, that patches
// the global, shared and local classes (or those PROBE_CLASSES names: g, s, l)
// with counting patches (probe_patch.cu) and prints, per launch, the calls by
// class and flags, the SASS offsets reported, and what each
// sanitizerPatchInstructions call returned. It answers whether an instruction
// dcutrace never records was patched at all (docs/CAPTURE.md, spills).
#include <sanitizer.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "probe_counts.h"

namespace {

struct Probe {
    Sanitizer_SubscriberHandle sub{};
    ProbeCounts* dev = nullptr;
    ProbeCounts host{};
    std::string classes = "gsl";
    bool tracing = false;
};
Probe g;

// The code as a number: 0 is success (sanitizer_result.h).
int result_name(SanitizerResult r) { return int(r); }

void on_module(CUmodule m) {
    const struct { char c; Sanitizer_InstructionId id; const char* fn; } kinds[] = {
        {'g', SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, "probe_global"},
        {'s', SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS, "probe_shared"},
        {'l', SANITIZER_INSTRUCTION_LOCAL_MEMORY_ACCESS, "probe_local"}};
    for (const auto& k : kinds)
        if (g.classes.find(k.c) != std::string::npos)
            std::printf("probe: patch %s: %d\n", k.fn, result_name(sanitizerPatchInstructions(k.id, m, k.fn)));
    std::printf("probe: patch module: %d\n", result_name(sanitizerPatchModule(m)));
}

void on_launch_begin(const Sanitizer_LaunchData& ld) {
    std::memset(&g.host, 0, sizeof g.host);
    for (int c = 0; c < kProbeClasses; ++c) g.host.ptr_min[c] = ~0ull;
    uint64_t base = 0, size = 0;
    sanitizerGetFunctionPcAndSize(ld.module, ld.functionName, &base, &size);
    g.host.base = base;
    sanitizerMemcpyHostToDeviceAsync(g.dev, &g.host, sizeof g.host, ld.hStream);
    sanitizerSetCallbackData(ld.function, g.dev);
}

void on_launch_end(const Sanitizer_LaunchData& ld) {
    sanitizerStreamSynchronize(ld.hStream);
    sanitizerMemcpyDeviceToHost(&g.host, g.dev, sizeof g.host, ld.hStream);
    static const char* names[] = {"global", "shared", "local"};
    std::printf("probe: kernel %s\n", ld.functionName);
    for (int c = 0; c < kProbeClasses; ++c) {
        unsigned long long all = 0;
        for (int f = 0; f < kProbeFlags; ++f) all += g.host.calls[c][f];
        if (!all) {
            std::printf("probe:   %s: no call\n", names[c]);
            continue;
        }
        std::printf("probe:   %s: %llu lane calls, flags seen 0x%x, addresses 0x%llx..0x%llx\n", names[c], all,
                    g.host.flag_or[c], g.host.ptr_min[c], g.host.ptr_max[c]);
        for (int f = 0; f < kProbeFlags; ++f)
            if (g.host.calls[c][f]) std::printf("probe:     flags 0x%x: %llu\n", f, g.host.calls[c][f]);
        std::printf("probe:     offsets:");
        for (int s = 0; s < kProbeSlots; ++s)
            if (g.host.pc_calls[c][s]) std::printf(" %04x:%u", s * 16, g.host.pc_calls[c][s]);
        std::printf("\n");
    }
    std::fflush(stdout);
}

void SANITIZERAPI callback(void*, Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, const void* data) {
    if (domain == SANITIZER_CB_DOMAIN_RESOURCE && cbid == SANITIZER_CBID_RESOURCE_CONTEXT_CREATION_FINISHED) {
        CUcontext ctx = static_cast<const Sanitizer_ResourceContextData*>(data)->context;
        const char* patch = std::getenv("PROBE_PATCH");
        std::printf("probe: patches %s: %d\n", patch ? patch : "(unset)",
                    result_name(sanitizerAddPatchesFromFile(patch ? patch : "", ctx)));
        void* p = nullptr;
        if (sanitizerAlloc(ctx, &p, sizeof(ProbeCounts)) != SANITIZER_SUCCESS) std::printf("probe: no device memory\n");
        g.dev = static_cast<ProbeCounts*>(p);
    } else if (domain == SANITIZER_CB_DOMAIN_RESOURCE && cbid == SANITIZER_CBID_RESOURCE_MODULE_LOADED) {
        on_module(static_cast<const Sanitizer_ResourceModuleData*>(data)->module);
    } else if (domain == SANITIZER_CB_DOMAIN_LAUNCH && cbid == SANITIZER_CBID_LAUNCH_BEGIN) {
        on_launch_begin(*static_cast<const Sanitizer_LaunchData*>(data));
    } else if (domain == SANITIZER_CB_DOMAIN_LAUNCH && cbid == SANITIZER_CBID_LAUNCH_END) {
        on_launch_end(*static_cast<const Sanitizer_LaunchData*>(data));
    }
}

__attribute__((constructor)) void load() {
    unsetenv("LD_PRELOAD");
    if (const char* c = std::getenv("PROBE_CLASSES")) g.classes = c;
    sanitizerSubscribe(&g.sub, callback, nullptr);
    sanitizerEnableDomain(1, g.sub, SANITIZER_CB_DOMAIN_RESOURCE);
    sanitizerEnableDomain(1, g.sub, SANITIZER_CB_DOMAIN_LAUNCH);
}

}  // namespace
