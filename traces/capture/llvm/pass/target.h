// What the pass needs to know of each GPU target: which functions are
// kernels, how its address spaces map onto dcusim's, and which intrinsics are
// barriers or memory accesses that LLVM's own instructions do not show.
#pragma once

#include <cstdint>
#include <optional>

#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include "../runtime/dcucc_abi.h"

namespace dcucc {

enum class Gpu { None, Amdgcn, Nvptx };

Gpu gpu_of(const llvm::Module& m);
bool is_kernel(const llvm::Function& f, Gpu gpu);

// dcusim's space for a pointer of address space `as`: DCUCC_GENERIC for a flat
// pointer (resolved on the device), nothing for spaces that carry no memory
// traffic dcusim models (NVPTX kernel parameters, AMDGPU GDS and buffer resources).
std::optional<uint32_t> space_of(unsigned as, Gpu gpu);

// A memory access made by a call to a target intrinsic.
struct IntrinsicAccess {
    llvm::Value* ptr = nullptr;
    uint32_t op = DCUCC_LOAD;
    llvm::Type* type = nullptr;  // the value type moved per lane
    bool readonly = false;
};
std::optional<IntrinsicAccess> intrinsic_access(llvm::CallBase& call, Gpu gpu);

// The widest access the backend uses when it expands a small memcpy: AMDGPU
// copies in 16-byte vectors (getOptimalMemOpType), NVPTX in its widest legal
// integer, 8 bytes (seen in clang 19's PTX; a memset's stores of a constant
// are merged into 16-byte vector stores on both).
uint64_t copy_piece_bytes(Gpu gpu);

// A workgroup-wide barrier (not a wave-level sync).
bool is_barrier(const llvm::CallBase& call, Gpu gpu);

}  // namespace dcucc
