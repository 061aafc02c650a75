// Host code: every call of a kernel-launch function of the CUDA or HIP runtime
// (and driver) API goes to dcucc's host runtime instead, with two more
// arguments: the kernel's own argument count (-1 when it cannot be seen here)
// and its mangled name (null likewise). The runtime appends the hidden
// argument and captures the launch. Calls of the host-call entry points
// dcucc records (copies, page-locked allocations, streams, waits, mapped
// pointers: host_pass.cpp's kHostCalls) go to `__dcucc_NAME` with their own
// arguments, which records them. Every other call of a CUDA runtime or HIP
// function is bracketed as API time (the host time between calls is the
// program's own). The module's device metadata, if the
// device compile left any, is embedded and registered at start-up.
#pragma once

#include "llvm/IR/PassManager.h"

namespace dcucc {

struct HostPass : llvm::PassInfoMixin<HostPass> {
    llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager& am);
};

}  // namespace dcucc
