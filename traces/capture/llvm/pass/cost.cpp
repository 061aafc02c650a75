#include "cost.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include "compat.h"

using namespace llvm;

namespace dcucc {

namespace {

bool is_wide_int(const Type* t) { return t->isIntegerTy() && t->getIntegerBitWidth() > 32; }

Tally intrinsic_cost(const IntrinsicInst& ii) {
    if (ii.isAssumeLikeIntrinsic() || isa<DbgInfoIntrinsic>(ii)) return {};
    const StringRef n = ii.getCalledFunction()->getName();
    // Transcendentals and square roots run on the special-function unit.
    static const char* const slow[] = {"llvm.sqrt.", "llvm.exp", "llvm.log", "llvm.sin.", "llvm.cos.", "llvm.pow.",
                                       "llvm.nvvm.rsqrt", "llvm.nvvm.sqrt", "llvm.nvvm.ex2", "llvm.nvvm.lg2",
                                       "llvm.nvvm.sin", "llvm.nvvm.cos", "llvm.nvvm.rcp", "llvm.amdgcn.rcp",
                                       "llvm.amdgcn.rsq", "llvm.amdgcn.sqrt", "llvm.amdgcn.exp", "llvm.amdgcn.log",
                                       "llvm.amdgcn.sin", "llvm.amdgcn.cos"};
    for (const char* p : slow)
        if (starts_with(n, p)) return {1, 1, 0};
    if (starts_with(n, "llvm.nvvm.mulhi") || starts_with(n, "llvm.amdgcn.mul")) return {1, 0, 1};
    // Special registers (thread and block ids) and lane operations issue like ALU instructions.
    return {1, 0, 0};
}

}  // namespace

Tally cost_of(const Instruction& inst) {
    if (isa<PHINode>(inst) || isa<AllocaInst>(inst) || isa<UnreachableInst>(inst) || isa<FreezeInst>(inst))
        return {};
    if (const auto* ii = dyn_cast<IntrinsicInst>(&inst)) return intrinsic_cost(*ii);
    if (const auto* gep = dyn_cast<GetElementPtrInst>(&inst))
        return gep->hasAllConstantIndices() ? Tally{} : Tally{1, 0, 0};  // constant offsets fold into the access
    switch (inst.getOpcode()) {
        case Instruction::BitCast:
        case Instruction::AddrSpaceCast:
        case Instruction::PtrToInt:
        case Instruction::IntToPtr:
            return {};  // no instruction: a register is reinterpreted
        case Instruction::FPToSI:
        case Instruction::FPToUI:
        case Instruction::SIToFP:
        case Instruction::UIToFP:
        case Instruction::FPTrunc:
        case Instruction::FPExt:
        case Instruction::FDiv:
        case Instruction::FRem:
            return {1, 1, 0};
        case Instruction::UDiv:
        case Instruction::SDiv:
        case Instruction::URem:
        case Instruction::SRem:
            // By a constant: a multiply by the reciprocal; else the reciprocal's own sequence.
            return isa<Constant>(inst.getOperand(1)) ? Tally{2, 0, 1} : Tally{4, 2, 1};
        case Instruction::Mul:
            return is_wide_int(inst.getType()) ? Tally{2, 0, 1} : Tally{1, 0, 0};
        case Instruction::Br:
            return cast<BranchInst>(inst).isConditional() ? Tally{1, 0, 0} : Tally{};
        default:
            break;
    }
    // 64-bit integer arithmetic takes two 32-bit instructions.
    if (inst.isBinaryOp() && is_wide_int(inst.getType())) return {2, 0, 0};
    return {1, 0, 0};
}

}  // namespace dcucc
