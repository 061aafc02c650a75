// The HIP runtime calls this suite uses, on either vendor.
// On AMD (hipcc) this is <hip/hip_runtime.h>. On NVIDIA the suite builds with
// nvcc, and these names map onto the CUDA runtime: Debian's HIP-on-NVIDIA
// headers (libamdhip64-dev 5.2.3) do not compile against CUDA 13, which removed
// cudaDeviceProp fields they read (clockRate, memoryClockRate), and the
// suite needs only this much. Device code (__global__, __shared__,
// __constant__, threadIdx, __syncthreads) is the same language on both.
#pragma once

#if defined(__CUDACC__) && !defined(__HIP_PLATFORM_AMD__) && !defined(__HIPCC__)
#include <cuda_runtime.h>
#define DCU_VALIDATION_VENDOR "nvidia"
#define DCU_VALIDATION_NVIDIA 1
#define hipError_t cudaError_t
#define hipSuccess cudaSuccess
#define hipGetErrorString cudaGetErrorString
#define hipGetLastError cudaGetLastError
#define hipMalloc cudaMalloc
#define hipFree cudaFree
#define hipMemcpy cudaMemcpy
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemset cudaMemset
#define hipMemcpyToSymbol cudaMemcpyToSymbol
#define hipDeviceSynchronize cudaDeviceSynchronize
#define hipEvent_t cudaEvent_t
#define hipEventCreate cudaEventCreate
#define hipEventRecord cudaEventRecord
#define hipEventSynchronize cudaEventSynchronize
#define hipEventElapsedTime cudaEventElapsedTime
#define hipEventDestroy cudaEventDestroy
#define hipDeviceProp_t cudaDeviceProp
#define hipGetDeviceProperties cudaGetDeviceProperties
#define hipGetDeviceCount cudaGetDeviceCount
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipMemcpyAsync cudaMemcpyAsync
#define hipHostMalloc cudaHostAlloc
#define hipHostMallocDefault cudaHostAllocDefault
#define hipHostMallocWriteCombined cudaHostAllocWriteCombined
#define hipHostMallocMapped cudaHostAllocMapped
#define hipHostFree cudaFreeHost
#define hipHostGetDevicePointer cudaHostGetDevicePointer
#define hipStream_t cudaStream_t
#define hipStreamCreate cudaStreamCreate
#define hipStreamDestroy cudaStreamDestroy
#define hipStreamSynchronize cudaStreamSynchronize
#define hipFuncSetAttribute cudaFuncSetAttribute
#define hipFuncAttributePreferredSharedMemoryCarveout cudaFuncAttributePreferredSharedMemoryCarveout
#define hipLaunchKernelGGL(kernel, grid, block, shmem, stream, ...) \
    kernel<<<(grid), (block), (shmem), (stream)>>>(__VA_ARGS__)
#if defined(DCU_CAPTURE)
// Capture build: the Sanitizer API cannot see constant-bank loads, so
// __constant__ data moves to global memory, where every load is seen, and
// the harness marks its range as constant for dcutrace (docs/CAPTURE.md).
#undef __constant__
#define __constant__ __device__
#endif
#else
#include <hip/hip_runtime.h>
#define DCU_VALIDATION_VENDOR "amd"
#define DCU_VALIDATION_NVIDIA 0
#endif
