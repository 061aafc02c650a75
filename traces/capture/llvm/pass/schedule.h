// The order in which the backend issues a block's loads. Both backends'
// schedulers (ptxas; AMDGPU's machine scheduler) issue independent loads
// early to cover their latency: a load moves up past computation, past other
// loads' uses and past stores it cannot alias, to just after what it depends
// on. The pass moves loads so in the code it instruments, before recording,
// so that the record order and the waits are those of the issued code.
#pragma once

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/IR/Function.h"

#include "target.h"

namespace dcucc {

// Moves each plain load of `f` up within its block as far as its operands, the
// block's last barrier or side effect, the last store that may alias it and the
// load before it allow. Returns how many loads moved.
unsigned hoist_loads(llvm::Function& f, Gpu gpu, llvm::AAResults& aa);

}  // namespace dcucc
