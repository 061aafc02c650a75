// Instruments the device code of one module (amdgcn or nvptx64): a record
// before every memory access and barrier, waits before the first use of a
// loaded value, counts of the other instructions between them, and one hidden
// kernel argument that points at the launch's record buffer.
#pragma once

#include "llvm/IR/PassManager.h"

namespace dcucc {

struct DevicePass : llvm::PassInfoMixin<DevicePass> {
    llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager& am);
};

}  // namespace dcucc
