// The launch's record buffer reaches the kernel as one more argument, after
// the kernel's own: the host runtime appends it to every launch it makes. The
// kernel stores it where the device runtime finds it (__dcucc_enter).
#pragma once

#include "llvm/IR/Function.h"

#include "target.h"

namespace dcucc {

// Replaces `kernel` by a kernel of the same name with one more pointer argument.
llvm::Function* add_hidden_arg(llvm::Function& kernel, Gpu gpu);

}  // namespace dcucc
