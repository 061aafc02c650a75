// The probe kernels' bodies: regspill.hip's mix and shared_compute.hip's private array.
#pragma once

#define MIX_BODY                                                                          \
    const int t = blockIdx.x * blockDim.x + threadIdx.x, n = gridDim.x * blockDim.x;     \
    float v[48];                                                                          \
    _Pragma("unroll") for (int i = 0; i < 48; ++i) v[i] = in[t + i * n];                 \
    for (int round = 0; round < rounds; ++round) {                                        \
        _Pragma("unroll") for (int i = 0; i < 48; ++i) v[i] = v[i] * v[(i + 1) % 48] + v[(i + 7) % 48]; \
    }                                                                                     \
    float acc = 0;                                                                        \
    _Pragma("unroll") for (int i = 0; i < 48; ++i) acc += v[i];                           \
    out[t] = acc;

#define PRIV_BODY                                                                         \
    float priv[96];                                                                       \
    int t = blockIdx.x * blockDim.x + threadIdx.x;                                        \
    for (int i = 0; i < 96; ++i) priv[i] = in[t] * float(i);                              \
    float acc = 0;                                                                        \
    for (int i = 0; i < 96; ++i) acc += priv[(i * 7 + t + zero) % 96];                    \
    out[t] = acc;
