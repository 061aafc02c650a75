#include "schedule.h"

#include <optional>
#include <vector>

#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace dcucc {

namespace {

// The dcusim space a pointer reaches, where it is known: its own address
// space's, or its object's. Kernel pointer arguments point to global memory
// (the CUDA and HIP rule that NVPTX's argument lowering applies).
std::optional<uint32_t> space_reached(const Value* ptr, Gpu gpu) {
    const std::optional<uint32_t> own = space_of(ptr->getType()->getPointerAddressSpace(), gpu);
    if (own != DCUCC_GENERIC) return own;
    const Value* obj = getUnderlyingObject(ptr, 12);
    if (const auto* gv = dyn_cast<GlobalVariable>(obj)) return space_of(gv->getAddressSpace(), gpu);
    if (isa<AllocaInst>(obj)) return DCUCC_LOCAL;
    if (const auto* arg = dyn_cast<Argument>(obj); arg && is_kernel(*arg->getParent(), gpu)) return DCUCC_GLOBAL;
    return std::nullopt;
}

bool may_alias(LoadInst& load, Instruction& writer, Gpu gpu, AAResults& aa) {
    auto* store = dyn_cast<StoreInst>(&writer);
    if (!store) return true;  // an atomic or a call that writes: take it as aliasing
    const auto a = space_reached(load.getPointerOperand(), gpu);
    const auto b = space_reached(store->getPointerOperand(), gpu);
    if (a && b && *a != *b) return false;
    return !aa.isNoAlias(MemoryLocation::get(&load), MemoryLocation::get(store));
}

// Nothing moves past a barrier, a fence or a call with side effects.
// Allocas stay at the top of the entry block.
bool is_fence(const Instruction& i) {
    if (isa<AllocaInst>(i)) return true;
    if (isa<DbgInfoIntrinsic>(i)) return false;
    if (isa<StoreInst>(i)) return false;
    if (const auto* ii = dyn_cast<IntrinsicInst>(&i); ii && ii->isAssumeLikeIntrinsic()) return false;
    return i.mayHaveSideEffects() || isa<FenceInst>(i) || (isa<CallBase>(i) && i.mayWriteToMemory());
}

Instruction* later(Instruction* a, Instruction* b) {
    if (!a) return b;
    if (!b) return a;
    return a->comesBefore(b) ? b : a;
}

// Computation that may move anywhere its operands are defined.
bool movable(const Instruction& i) {
    return !isa<PHINode>(i) && !isa<AllocaInst>(i) && !i.isTerminator() && !i.mayReadOrWriteMemory() &&
           !i.mayHaveSideEffects() && !isa<DbgInfoIntrinsic>(i);
}

// Moves `x` up to just after `bound` (nullptr: the block's start) or after
// its operands, whichever is later, taking along the computation of its
// operands in the block. Returns whether it moved.
bool lift(Instruction* x, Instruction* bound) {
    BasicBlock& bb = *x->getParent();
    Instruction* after = bound;
    for (Value* op : x->operands()) {
        auto* def = dyn_cast<Instruction>(op);
        if (!def || def->getParent() != &bb || isa<PHINode>(def)) continue;
        if (movable(*def) && (!bound || bound->comesBefore(def))) lift(def, bound);
        after = later(after, def);
    }
    Instruction* dest = after ? after->getNextNode() : &*bb.getFirstInsertionPt();
    if (dest == x || !dest->comesBefore(x)) return false;
    x->moveBefore(dest);
    return true;
}

}  // namespace

unsigned hoist_loads(Function& f, Gpu gpu, AAResults& aa) {
    unsigned moved = 0;
    for (BasicBlock& bb : f) {
        std::vector<Instruction*> insts;
        for (Instruction& i : bb)
            if (!isa<PHINode>(i)) insts.push_back(&i);
        Instruction* floor = nullptr;       // a load goes after this (nullptr: the block's start)
        std::vector<Instruction*> writers;  // stores since the last fence
        for (Instruction* i : insts) {
            auto* load = dyn_cast<LoadInst>(i);
            if (!load || !load->isSimple()) {
                if (is_fence(*i)) {
                    floor = i;
                    writers.clear();
                } else if (i->mayWriteToMemory()) {
                    writers.push_back(i);
                }
                continue;
            }
            Instruction* bound = floor;
            for (Instruction* w : writers)
                if (may_alias(*load, *w, gpu, aa)) bound = later(bound, w);
            moved += lift(load, bound);
            floor = load;  // loads keep their order
        }
    }
    return moved;
}

}  // namespace dcucc
