// CUDA's side of dcucc's host runtime: the GPU calls of a traced launch,
// through the CUDA runtime (which uses the context current to the launching
// thread, so driver-API launches share it).
#pragma once

#include <cuda_runtime_api.h>

#include "capture.h"

namespace dcucc::host {

class CudaBackend : public Backend {
public:
    int device() override;
    uint32_t wave_size(int device) override;
    uint64_t alloc_device(uint64_t bytes) override;
    void* alloc_pinned(uint64_t bytes) override;
    void free_pinned(void* p) override;
    void sync_device() override;
    void upload(uint64_t dst, const void* src, uint64_t bytes, void* stream) override;
    void sync(void* stream) override;
    void download(void* dst, uint64_t src, uint64_t bytes, void* stream) override;
    bool capturing(void* stream) override;
};

CudaBackend& cuda_backend();

}  // namespace dcucc::host
