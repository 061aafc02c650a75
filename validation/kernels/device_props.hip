// The device's own account of itself: the runtime's properties that a preset
// sets (compute units, wave size, L2 size, shared memory, registers, memory
// bus). A preset value that disagrees with these needs a measurement to
// overrule it. Prints one `PROP name value` line each. No kernel runs.
#include <cstdio>

#include "../common/harness.h"

int main() {
    int devices = 0;
    HIP_CHECK(hipGetDeviceCount(&devices));
    for (int d = 0; d < devices; ++d) {
        hipDeviceProp_t p;
        HIP_CHECK(hipGetDeviceProperties(&p, d));
        auto num = [d](const char* name, long long v) { std::printf("PROP %d %s %lld\n", d, name, v); };
        std::printf("PROP %d name %s\n", d, p.name);
        num("multiProcessorCount", p.multiProcessorCount);
        num("warpSize", p.warpSize);
        num("maxThreadsPerMultiProcessor", p.maxThreadsPerMultiProcessor);
        num("regsPerBlock", p.regsPerBlock);
        num("sharedMemPerBlock", (long long)p.sharedMemPerBlock);
        num("totalConstMem", (long long)p.totalConstMem);
        num("totalGlobalMem", (long long)p.totalGlobalMem);
        num("l2CacheSize", p.l2CacheSize);
        num("memoryBusWidth", p.memoryBusWidth);
#if DCU_VALIDATION_NVIDIA
        num("regsPerMultiprocessor", p.regsPerMultiprocessor);
        num("sharedMemPerMultiprocessor", (long long)p.sharedMemPerMultiprocessor);
        num("sharedMemPerBlockOptin", (long long)p.sharedMemPerBlockOptin);
        num("persistingL2CacheMaxSize", p.persistingL2CacheMaxSize);
        num("accessPolicyMaxWindowSize", p.accessPolicyMaxWindowSize);
        num("maxBlocksPerMultiProcessor", p.maxBlocksPerMultiProcessor);
        num("major", p.major);
        num("minor", p.minor);
#else
        num("maxSharedMemoryPerMultiProcessor", (long long)p.maxSharedMemoryPerMultiProcessor);
        num("memoryClockRate_kHz", p.memoryClockRate);
        num("clockRate_kHz", p.clockRate);
        std::printf("PROP %d gcnArchName %s\n", d, p.gcnArchName);
#endif
    }
    return 0;
}
