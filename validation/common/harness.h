// Timing and reporting shared by the validation programs. Each program runs
// its variants and prints one line per variant:
//   RESULT <family> <variant> <size> <median ms> <bytes moved or 0>
// Timing: 2 warm-up launches, then the median of 21 timed with events.
// With --once each variant runs a single time (for the profiler and capture);
// with --repeat N, N times back to back, untimed (a profiler's median).
// With --small each program runs its validation size: small enough that a
// captured trace stays small and replays quickly, large enough to fill the GPU.
// With --sample-size, the size for sampled simulation (issue 23): grids of
// 65,536 blocks of 256 threads, 62 occupancy rounds of the H200, for traces of
// a few MiB each (the experiment sample: validation/run.py device sample); --small wins over it, and
// programs whose full size is already that (transpose, reduce, spill) keep it.
// A capture build (-DDCU_CAPTURE, see hip_compat.h) tells dcutrace where its
// __constant__ data lives with mark_const.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "hip_compat.h"

#if defined(DCU_CAPTURE)
#include <dlfcn.h>
#endif

#define HIP_CHECK(call)                                                                              \
    do {                                                                                             \
        hipError_t e_ = (call);                                                                      \
        if (e_ != hipSuccess) {                                                                      \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            std::exit(1);                                                                            \
        }                                                                                            \
    } while (0)

namespace validation {

inline bool flag(int argc, char** argv, const char* name) {
    for (int i = 1; i < argc; ++i)
        if (!std::strcmp(argv[i], name)) return true;
    return false;
}
// Launches of each variant in profiling mode (--repeat N; 1 with --once).
inline int& repeat_count() {
    static int n = 1;
    return n;
}
inline bool once(int argc, char** argv) {
    for (int i = 1; i + 1 < argc; ++i)
        if (!std::strcmp(argv[i], "--repeat")) {
            repeat_count() = std::max(1, std::atoi(argv[i + 1]));
            return true;
        }
    return flag(argc, argv, "--once");
}
inline bool small(int argc, char** argv) { return flag(argc, argv, "--small"); }
inline bool sample_size(int argc, char** argv) { return !small(argc, argv) && flag(argc, argv, "--sample-size"); }

// Capture builds only: registers a __constant__ symbol (a global there) with
// dcutrace, which then records loads from it as `const` accesses.
template <typename T>
void mark_const(const T& symbol) {
#if defined(DCU_CAPTURE)
    void* p = nullptr;
    size_t n = 0;
    HIP_CHECK(cudaGetSymbolAddress(&p, symbol));
    HIP_CHECK(cudaGetSymbolSize(&n, symbol));
    using Mark = void (*)(const void*, size_t);
    if (auto f = reinterpret_cast<Mark>(dlsym(RTLD_DEFAULT, "dcutrace_mark_const"))) f(p, n);
#else
    (void)symbol;
#endif
}

// Runs `launch` (which launches the kernel) and reports its median time; `before` runs before each
// launch, untimed (a cache scrub).
template <typename Launch, typename Before>
void measure(bool single, const char* family, const char* variant, long long size, double bytes, Launch launch,
             Before before) {
    if (single) {
        for (int i = 0; i < repeat_count(); ++i) before(), launch();
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
        return;
    }
    hipEvent_t a, b;
    HIP_CHECK(hipEventCreate(&a));
    HIP_CHECK(hipEventCreate(&b));
    for (int i = 0; i < 2; ++i) before(), launch();
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    std::vector<float> ms;
    for (int i = 0; i < 21; ++i) {
        before();
        HIP_CHECK(hipEventRecord(a, 0));
        launch();
        HIP_CHECK(hipEventRecord(b, 0));
        HIP_CHECK(hipEventSynchronize(b));
        float t = 0;
        HIP_CHECK(hipEventElapsedTime(&t, a, b));
        ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    std::printf("RESULT %s %s %lld %.6f %.0f\n", family, variant, size, double(ms[ms.size() / 2]), bytes);
    HIP_CHECK(hipEventDestroy(a));
    HIP_CHECK(hipEventDestroy(b));
}
template <typename Launch>
void measure(bool single, const char* family, const char* variant, long long size, double bytes, Launch launch) {
    measure(single, family, variant, size, bytes, launch, [] {});
}

}  // namespace validation
