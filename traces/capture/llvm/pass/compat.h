// The few LLVM APIs that changed between the versions dcucc builds against
// (15, the LLVM of Debian's hipcc, to 19 and later).
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Function.h"

#if LLVM_VERSION_MAJOR >= 17
#include "llvm/TargetParser/Triple.h"
#else
#include "llvm/ADT/Triple.h"
#endif

namespace dcucc {

inline bool starts_with(llvm::StringRef s, llvm::StringRef prefix) { return s.substr(0, prefix.size()) == prefix; }

// Moves every basic block of `from` to the start of `to`.
inline void move_blocks(llvm::Function& from, llvm::Function& to) {
#if LLVM_VERSION_MAJOR >= 16
    to.splice(to.begin(), &from);
#else
    to.getBasicBlockList().splice(to.begin(), from.getBasicBlockList());
#endif
}

// The trailing bits of `s` known to be zero.
inline uint32_t min_trailing_zeros(llvm::ScalarEvolution& se, const llvm::SCEV* s) {
#if LLVM_VERSION_MAJOR >= 17
    return se.getMinTrailingZeros(s);
#else
    return se.GetMinTrailingZeros(s);
#endif
}

}  // namespace dcucc
