// Timers and the CU (SM) id for the timed microbenchmarks, on both platforms.
#pragma once

#include "hip_compat.h"

// The timers: a GPU-wide one (ns) and the CU's cycle counter. "memory" keeps
// them in program order around the loads and stores; a wave issues in order,
// so the read after the store happens once the load's data is back.
__device__ inline unsigned long long global_ns() {
#if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC__)
#if defined(__HIP_DEVICE_COMPILE__)
    return (unsigned long long)__builtin_amdgcn_s_memrealtime() * 10;  // gfx9: a 100 MHz clock (coarse: 10 ns)
#else
    return 0;  // (host pass)
#endif
#else
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
#endif
}
__device__ inline long long cu_cycles() {
#if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC__)
    return clock64();
#else
    long long c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)::"memory");
    return c;
#endif
}
__device__ inline unsigned cu_id() {
#if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC__)
    return __smid();
#else
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
#endif
}
