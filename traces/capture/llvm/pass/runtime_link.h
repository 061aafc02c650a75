// Links dcucc's device runtime (bitcode built with the pass, one file per
// target) into an instrumented device module.
#pragma once

#include "llvm/IR/Module.h"

#include "target.h"

namespace dcucc {

// Finds the bitcode ($DCUCC_DEVICE_RUNTIME, else dcucc_device_<target>.bc beside
// the plugin), links what the module calls and makes it internal. On failure,
// reports a compile error and returns false.
bool link_device_runtime(llvm::Module& m, Gpu gpu);

}  // namespace dcucc
