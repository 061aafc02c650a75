// Timing and reporting shared by the validation programs. Each program runs
// its variants and prints one line per variant:
//   RESULT <family> <variant> <size> <median ms> <bytes moved or 0>
// Timing: 2 warm-up launches, then the median of 21 timed with events.
// With --once each variant runs a single time (for the profiler).
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "hip_compat.h"

#define HIP_CHECK(call)                                                                              \
    do {                                                                                             \
        hipError_t e_ = (call);                                                                      \
        if (e_ != hipSuccess) {                                                                      \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            std::exit(1);                                                                            \
        }                                                                                            \
    } while (0)

namespace validation {

inline bool once(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (!std::strcmp(argv[i], "--once")) return true;
    return false;
}

// Runs `launch` (which launches the kernel) and reports its median time.
template <typename Launch>
void measure(bool single, const char* family, const char* variant, long long size, double bytes, Launch launch) {
    if (single) {
        launch();
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
        return;
    }
    hipEvent_t a, b;
    HIP_CHECK(hipEventCreate(&a));
    HIP_CHECK(hipEventCreate(&b));
    for (int i = 0; i < 2; ++i) launch();
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    std::vector<float> ms;
    for (int i = 0; i < 21; ++i) {
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

}  // namespace validation
