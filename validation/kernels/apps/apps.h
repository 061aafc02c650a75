// What the application test set's programs share beyond the suite's harness: the warp width and a
// shuffle that compile for both vendors (wave64 on AMD, warps of 32 on NVIDIA; Debian's hipcc 5.2 has
// no *_sync shuffles), and deterministic host data (an LCG: the same inputs on every run and machine).
#pragma once

#include <cstdint>
#include <vector>

#include "../../common/harness.h"

#if DCU_VALIDATION_NVIDIA
#define APPS_WARP 32
__device__ inline float shfl_down(float v, int d) { return __shfl_down_sync(0xffffffffu, v, d); }
__device__ inline float shfl_first(float v) { return __shfl_sync(0xffffffffu, v, 0); }
#else
#define APPS_WARP 64
__device__ inline float shfl_down(float v, int d) { return __shfl_down(v, d); }
__device__ inline float shfl_first(float v) { return __shfl(v, 0); }
#endif

// The sum of v over the warp, in lane 0.
__device__ inline float warp_sum(float v) {
    for (int d = APPS_WARP / 2; d > 0; d >>= 1) v += shfl_down(v, d);
    return v;
}

namespace apps {

struct Lcg {
    uint64_t s;
    explicit Lcg(uint64_t seed) : s(seed * 2862933555777941757ull + 3037000493ull) {}
    uint32_t next() {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return uint32_t(s >> 33);
    }
    uint32_t below(uint32_t n) { return uint32_t((uint64_t(next()) * n) >> 31); }
    float unit() { return float(next() & 0xffffff) / float(1 << 24); }
};

// A device copy of a host vector.
template <typename T>
T* upload(const std::vector<T>& h) {
    T* d = nullptr;
    HIP_CHECK(hipMalloc(&d, sizeof(T) * h.size()));
    HIP_CHECK(hipMemcpy(d, h.data(), sizeof(T) * h.size(), hipMemcpyHostToDevice));
    return d;
}

// n floats of uniform values in [0, 1), on the device.
inline float* random_floats(size_t n, uint64_t seed) {
    std::vector<float> h(n);
    Lcg r(seed);
    for (auto& v : h) v = r.unit();
    return upload(h);
}

template <typename T>
T* zeros(size_t n) {
    T* d = nullptr;
    HIP_CHECK(hipMalloc(&d, sizeof(T) * n));
    HIP_CHECK(hipMemset(d, 0, sizeof(T) * n));
    return d;
}

}  // namespace apps
