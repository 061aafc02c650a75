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

// A division or remainder by a run-time value: neither ISA divides integers,
// so the backend emits a reciprocal-based sequence (NVIDIA's for a 32-bit
// unsigned remainder, in the SASS of coalescing's strided kernels: 18
// instructions, of them a conversion each way and the reciprocal slow, two
// high-word multiplies; signed adds the sign fix-ups). A 64-bit one first
// tests whether both operands fit 32 bits and then takes the 32-bit sequence
// (LLVM's bypass of slow division, on by default for NVPTX and AMDGPU).
// AMDGPU's expansion is taken to be as long (assumed).
Tally division_cost(const Instruction& inst) {
    if (isa<Constant>(inst.getOperand(1))) return {2, 0, 1};  // a multiply by the reciprocal
    const bool is_signed = inst.getOpcode() == Instruction::SDiv || inst.getOpcode() == Instruction::SRem;
    if (is_wide_int(inst.getType())) return {21, 3, 2};
    return is_signed ? Tally{22, 3, 2} : Tally{18, 3, 2};
}

bool one_user_is(const Instruction& inst, unsigned opcode) {
    if (!inst.hasOneUse()) return false;
    const auto* u = dyn_cast<Instruction>(inst.user_back());
    return u && u->getOpcode() == opcode && u->getType() == inst.getType();
}

// Instruction selection makes one machine instruction of two IR ones: a
// multiply whose product only feeds an add becomes a fused multiply-add (FMA
// where contraction is allowed, both targets; IMAD and LEA on NVIDIA, which
// also take a 32-bit index into the 64-bit address: IMAD.WIDE, LEA.HI.X).
bool folded(const Instruction& inst, Gpu gpu) {
    if (inst.getOpcode() == Instruction::FMul && inst.hasAllowContract())
        return (one_user_is(inst, Instruction::FAdd) || one_user_is(inst, Instruction::FSub)) &&
               cast<Instruction>(inst.user_back())->hasAllowContract();
    if (gpu != Gpu::Nvptx) return false;
    const bool i32 = inst.getType()->isIntegerTy(32);
    if (i32 && (inst.getOpcode() == Instruction::Mul ||
                (inst.getOpcode() == Instruction::Shl && isa<Constant>(inst.getOperand(1)))))
        return one_user_is(inst, Instruction::Add);
    if ((isa<ZExtInst>(inst) || isa<SExtInst>(inst)) && inst.getOperand(0)->getType()->isIntegerTy(32) &&
        inst.getType()->isIntegerTy(64) && !inst.use_empty()) {
        for (const Use& u : inst.uses()) {
            const auto* gep = dyn_cast<GetElementPtrInst>(u.getUser());
            if (!gep || u.getOperandNo() == 0) return false;
        }
        return true;
    }
    return false;
}

}  // namespace

Tally cost_of(const Instruction& inst, Gpu gpu) {
    if (folded(inst, gpu)) return {};
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
            return division_cost(inst);
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
