#include "device_pass.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/Utils/LowerMemIntrinsics.h"

#include "compat.h"
#include "cost.h"
#include "hidden_arg.h"
#include "joins.h"
#include "meta.h"
#include "runtime_link.h"
#include "schedule.h"
#include "target.h"

using namespace llvm;

namespace dcucc {

namespace {

// Copies and fills of a constant size up to this many bytes are lowered by the
// backends into straight-line accesses (NVPTX and AMDGPU both inline them).
constexpr uint64_t kInlineMemLimit = 256;

bool small_mem_intrinsic(const MemIntrinsic& m) {
    const auto* len = dyn_cast<ConstantInt>(m.getLength());
    return len && len->getZExtValue() <= kInlineMemLimit;
}

// One memory access the device runtime records: a piece of at most 16 bytes per lane.
struct Piece {
    Value* ptr;
    uint64_t offset;
    unsigned log2b;
};

// Splits an access of `bytes` per lane at alignment `align` into the pieces the
// backend issues: powers of two, at most `widest` bytes, no larger than the alignment.
std::vector<Piece> split_access(Value* ptr, uint64_t bytes, uint64_t align, uint64_t widest = 16) {
    std::vector<Piece> out;
    uint64_t off = 0;
    while (off < bytes) {
        uint64_t piece = widest;
        while (piece > bytes - off || (align && piece > align)) piece >>= 1;
        if (piece == 0) piece = 1;
        unsigned lg = 0;
        while ((1ull << lg) < piece) ++lg;
        out.push_back({ptr, off, lg});
        off += piece;
    }
    return out;
}

class FunctionInstrumenter {
public:
    FunctionInstrumenter(Function& f, Gpu gpu, LoopInfo& li, const Joins& joins, Meta& meta, uint32_t& next_pc,
                         FunctionCallee mem, FunctionCallee event)
        : f_(f), gpu_(gpu), li_(li), joins_(joins), meta_(meta), next_pc_(next_pc), mem_(mem), event_(event),
          dl_(f.getParent()->getDataLayout()) {}

    void run() {
        find_loaded_values();
        Instruction& entry = *f_.getEntryBlock().getFirstInsertionPt();
        make_counters();
        if (gpu_ == Gpu::Nvptx && is_kernel(f_, gpu_)) emit_launch_reads(entry);
        std::vector<BasicBlock*> blocks;
        for (BasicBlock& bb : f_) blocks.push_back(&bb);
        for (BasicBlock* bb : blocks) run_block(*bb);
    }

private:
    struct Access {
        Value* ptr;
        Type* type;
        uint32_t op;
        bool readonly;
        MaybeAlign align;
        int64_t offset = 0;  // from ptr
        uint32_t atomic = 0;  // an atomic's site flag: kSiteAtomicInt or kSiteAtomicFloat (meta.h)
    };

    std::optional<Access> access_of(Instruction& i) {
        if (auto* l = dyn_cast<LoadInst>(&i))
            return Access{l->getPointerOperand(), narrowed_type(*l), DCUCC_LOAD, readonly_load(*l), l->getAlign()};
        if (auto* s = dyn_cast<StoreInst>(&i))
            return Access{s->getPointerOperand(), s->getValueOperand()->getType(), DCUCC_STORE, false, s->getAlign()};
        // An atomic computes on floating point only where its operation does (fadd, fmax...): an
        // exchange of a float moves bits, as an integer one does.
        if (auto* a = dyn_cast<AtomicRMWInst>(&i))
            return Access{a->getPointerOperand(), a->getValOperand()->getType(), DCUCC_ATOMIC, false, a->getAlign(), 0,
                          AtomicRMWInst::isFPOperation(a->getOperation()) ? kSiteAtomicFloat : kSiteAtomicInt};
        if (auto* c = dyn_cast<AtomicCmpXchgInst>(&i))
            return Access{c->getPointerOperand(), c->getNewValOperand()->getType(), DCUCC_ATOMIC, false, c->getAlign(), 0,
                          kSiteAtomicInt};
        if (auto* call = dyn_cast<CallBase>(&i))
            if (auto a = intrinsic_access(*call, gpu_))
                return Access{a->ptr, a->type, a->op, a->readonly, MaybeAlign(), 0,
                              a->op != DCUCC_ATOMIC ? 0u : a->type->isFPOrFPVectorTy() ? kSiteAtomicFloat : kSiteAtomicInt};
        return std::nullopt;
    }

    // The type the backend loads: a simple load whose one use truncates it (through
    // at most one bitcast to an integer) is narrowed to the truncated width at the
    // same address (SelectionDAG's load-width reduction; little-endian), when that
    // is at least 32 bits (AMDGPU keeps narrower ones whole; see docs/CAPTURE.md).
    Type* narrowed_type(const LoadInst& l) const {
        if (!l.isSimple() || !l.hasOneUse()) return l.getType();
        const Value* v = l.user_back();
        if (const auto* bc = dyn_cast<BitCastInst>(v); bc && bc->getType()->isIntegerTy() && bc->hasOneUse())
            v = bc->user_back();
        const auto* tr = dyn_cast<TruncInst>(v);
        if (!tr || tr->getType()->isVectorTy()) return l.getType();
        const unsigned bits = tr->getType()->getIntegerBitWidth();
        return bits >= 32 && bits % 8 == 0 ? tr->getType() : l.getType();
    }

    // A load the backend may issue on the read-only path: invariant, constant, or
    // through a `noalias` kernel argument that the kernel never writes. Constant data
    // counts whatever pointer reaches it: __constant__ arrays indexed through a
    // generic pointer are read-only too.
    bool readonly_load(const LoadInst& l) const {
        if (l.hasMetadata(LLVMContext::MD_invariant_load)) return true;
        const Value* base = getUnderlyingObject(l.getPointerOperand(), 12);
        if (const auto* arg = dyn_cast<Argument>(base))
            return arg->hasNoAliasAttr() && arg->onlyReadsMemory();
        if (const auto* gv = dyn_cast<GlobalVariable>(base))
            return gv->isConstant() || space_of(gv->getAddressSpace(), gpu_) == DCUCC_CONST;
        return false;
    }

    // Values whose first use makes the wave wait for memory: loads, atomics'
    // results, and phis that carry them round a loop.
    void find_loaded_values() {
        for (Instruction& i : instructions(f_)) {
            if (!isa<LoadInst>(i) && !isa<AtomicRMWInst>(i) && !isa<AtomicCmpXchgInst>(i) &&
                !(isa<CallBase>(i) && !i.getType()->isVoidTy()))
                continue;
            if (auto a = access_of(i); a && !launch_state(a->ptr) && !constant_operand(*a)) loaded_.insert(&i);
        }
        for (bool grew = true; grew;) {
            grew = false;
            for (Instruction& i : instructions(f_))
                if (auto* phi = dyn_cast<PHINode>(&i); phi && !loaded_.count(phi))
                    for (Value* v : phi->incoming_values())
                        if (loaded_.count(v)) {
                            loaded_.insert(phi);
                            grew = true;
                            break;
                        }
        }
    }

    void make_counters() {
        IRBuilder<> b(&*f_.getEntryBlock().getFirstInsertionPt());
        Type* i32 = b.getInt32Ty();
        const unsigned as = dl_.getAllocaAddrSpace();
        for (auto** c : {&count_, &slow_, &mid_}) {
            *c = b.CreateAlloca(i32, as, nullptr, "dcucc.count");
            own_.insert(*c);
            own_.insert(b.CreateStore(b.getInt32(0), *c));
        }
    }

    // Adds `t` to the wave's running count and returns the three totals,
    // leaving the counters at zero (they restart after each record).
    std::vector<Value*> take_counts(IRBuilder<>& b, const Tally& t) {
        std::vector<Value*> v;
        const uint32_t add[3] = {t.n, t.slow, t.mid};
        AllocaInst* const c[3] = {count_, slow_, mid_};
        for (int k = 0; k < 3; ++k) {
            v.push_back(b.CreateAdd(b.CreateLoad(b.getInt32Ty(), c[k]), b.getInt32(add[k])));
            b.CreateStore(b.getInt32(0), c[k]);
        }
        return v;
    }

    uint32_t new_pc(const Instruction& at, uint32_t flags, std::string what) {
        const uint32_t pc = next_pc_;
        next_pc_ += 16;
        std::string line = "-";
        if (const DebugLoc& dl = at.getDebugLoc(); dl && dl.getLine())
            line = sys::path::filename(cast<DIScope>(dl.getScope())->getFilename()).str() + ":" +
                   std::to_string(dl.getLine());
        meta_.sites.push_back({pc, flags, line, f_.getName().str(), std::move(what)});
        return pc;
    }

    // The record goes before `at`; a barrier's names `site` for its PC and line.
    void emit_event(Instruction& at, uint32_t kind, Tally& t, const Instruction* site = nullptr) {
        IRBuilder<> b(&at);
        auto c = take_counts(b, t);
        const uint32_t pc = kind == DCUCC_BARRIER ? new_pc(site ? *site : at, 0, "bar") : 0;
        b.CreateCall(event_, {b.getInt32(DCUCC_INFO(kind, 0, 0, 0)), b.getInt32(pc), c[0], c[1], c[2]});
        t = Tally{};
    }

    // Reads of the dispatch packet and kernel-argument segment (AMDGPU's
    // workgroup sizes, grid sizes, hidden arguments): the hardware's launch
    // state, which NVIDIA GPUs hold in special registers. Not traffic dcusim models.
    static bool launch_state(const Value* ptr) {
        const auto* call = dyn_cast<CallBase>(getUnderlyingObject(ptr, 12));
        const Function* f = call ? call->getCalledFunction() : nullptr;
        if (!f) return false;
        const StringRef n = f->getName();
        return n == "llvm.amdgcn.dispatch.ptr" || n == "llvm.amdgcn.implicitarg.ptr" ||
               n == "llvm.amdgcn.kernarg.segment.ptr" || n == "llvm.amdgcn.queue.ptr" ||
               n == "llvm.amdgcn.implicit.buffer.ptr";
    }

    // NVIDIA's code reads a constant-bank word whose address is fixed at compile
    // time as an operand of the instruction that uses it (c[bank][offset]): no
    // load instruction and no constant-cache request (ncu's idc__requests count
    // only LDC's), so no record and no wait.
    bool constant_operand(const Access& a) const {
        if (gpu_ != Gpu::Nvptx || a.op != DCUCC_LOAD || !isa<Constant>(a.ptr)) return false;
        const Value* base = getUnderlyingObject(a.ptr, 12);  // through a cast to a generic pointer
        return space_of(base->getType()->getPointerAddressSpace(), gpu_) == DCUCC_CONST;
    }

    // NVIDIA keeps a kernel's parameters and its launch dimensions in constant
    // bank 0, and the code reads each one it uses with a constant-cache load
    // (LDC/ULDC), once per wave, near the start. They are recorded at the
    // kernel's entry as constant loads in a window of their own
    // (DCUCC_PARAM_WINDOW): one per used parameter (per 8 bytes of an aggregate)
    // and one per launch dimension read (%ntid, %nctaid).
    void emit_launch_reads(Instruction& at) {
        IRBuilder<> b(&at);
        const uint32_t info = DCUCC_INFO(DCUCC_MEM, DCUCC_CONST, DCUCC_LOAD, 0) | DCUCC_INFO_READONLY;
        auto record = [&](uint64_t offset, uint64_t bytes) {
            for (const Piece& p : split_access(nullptr, bytes, 8, 8))
                own_.insert(b.CreateCall(mem_, {b.getInt64(DCUCC_PARAM_WINDOW + offset + p.offset),
                                                b.getInt32(info | p.log2b << 7), b.getInt32(new_pc(at, 1, "ld const")),
                                                b.getInt32(0), b.getInt32(0), b.getInt32(0)}));
        };
        uint64_t offset = DCUCC_PARAM_OFFSET;
        for (Argument& arg : f_.args()) {
            Type* ty = arg.hasByValAttr() ? arg.getParamByValType() : arg.getType();
            const uint64_t bytes = dl_.getTypeAllocSize(ty).getFixedValue();
            const uint64_t align = std::min<uint64_t>(bytes ? bytes : 1, 8);
            offset = (offset + align - 1) / align * align;
            if (!arg.use_empty() && bytes) record(offset, bytes);
            offset += bytes;
        }
        // The launch dimensions sit before the parameters in bank 0.
        std::set<std::string> dims;
        for (Instruction& i : instructions(f_))
            if (const auto* ii = dyn_cast<IntrinsicInst>(&i)) {
                const StringRef n = ii->getCalledFunction()->getName();
                if (starts_with(n, "llvm.nvvm.read.ptx.sreg.ntid.") || starts_with(n, "llvm.nvvm.read.ptx.sreg.nctaid."))
                    dims.insert(n.str());
            }
        for (uint64_t d = 0; d < dims.size(); ++d) record(4 * d, 4);
    }

    // The site's operation and static space, as the host runtime matches them
    // to SASS memory instructions (runtime/host/machine.h).
    static std::string what_of(uint32_t op, uint32_t space) {
        static const char* const ops[] = {"ld", "st", "atom"};
        static const char* const spaces[] = {"global", "lds", "const", "local", "generic"};
        return std::string(ops[op]) + " " + spaces[space];
    }

    void emit_access(Instruction& at, const Access& a, Tally& t, uint64_t widest = 16) {
        if (launch_state(a.ptr)) return;
        const std::optional<uint32_t> space = space_of(a.ptr->getType()->getPointerAddressSpace(), gpu_);
        const uint64_t bytes = dl_.getTypeStoreSize(a.type).getFixedValue();
        if (!space || bytes == 0) return;
        const uint64_t align = a.align ? a.align->value() : 0;
        IRBuilder<> b(&at);
        for (const Piece& p : split_access(a.ptr, bytes, align, widest)) {
            const bool ro = a.readonly || *space == DCUCC_CONST;
            const uint32_t info = DCUCC_INFO(DCUCC_MEM, *space, a.op, p.log2b) | (ro ? DCUCC_INFO_READONLY : 0u);
            Value* addr = b.CreatePtrToInt(p.ptr, b.getInt64Ty());
            if (p.offset + a.offset) addr = b.CreateAdd(addr, b.getInt64(uint64_t(a.offset + int64_t(p.offset))));
            auto c = take_counts(b, t);
            const uint32_t pc = new_pc(at, (ro ? kSiteReadOnly : 0) | a.atomic, what_of(a.op, *space));
            b.CreateCall(mem_, {addr, b.getInt32(info), b.getInt32(pc), c[0], c[1], c[2]});
            t = Tally{};
        }
    }

    // A copy or fill of a few bytes: the backend issues it as straight-line
    // loads of the source and stores of the destination, as wide as the
    // alignment and the target's widest copy type allow (copy_piece_bytes; a
    // fill's constant stores merge up to 16 bytes on both targets); the stores
    // wait for the loads' data. NVPTX copies piece by piece from the last one
    // down, each load followed by its store (clang 19's PTX of 16-, 32-, 48-
    // and 64-byte struct copies).
    void emit_small_mem_intrinsic(MemIntrinsic& mi, Tally& t) {
        const uint64_t len = cast<ConstantInt>(mi.getLength())->getZExtValue();
        MaybeAlign align = mi.getDestAlign();
        Type* i8 = Type::getInt8Ty(mi.getContext());
        auto* mt = dyn_cast<MemTransferInst>(&mi);
        if (!mt) {
            emit_access(mi, Access{mi.getRawDest(), ArrayType::get(i8, len), DCUCC_STORE, false, align}, t);
            return;
        }
        const MaybeAlign sa = mt->getSourceAlign();
        if (!align || (sa && *sa < *align)) align = sa;
        const uint64_t widest = copy_piece_bytes(gpu_);
        if (gpu_ != Gpu::Nvptx) {
            emit_access(mi, Access{mt->getRawSource(), ArrayType::get(i8, len), DCUCC_LOAD, false, align}, t, widest);
            emit_event(mi, DCUCC_WAIT, t);
            emit_access(mi, Access{mi.getRawDest(), ArrayType::get(i8, len), DCUCC_STORE, false, align}, t, widest);
            return;
        }
        std::vector<Piece> pieces = split_access(nullptr, len, align ? align->value() : 0, widest);
        for (auto p = pieces.rbegin(); p != pieces.rend(); ++p) {
            Type* ty = ArrayType::get(i8, uint64_t(1) << p->log2b);
            const auto at = int64_t(p->offset);
            emit_access(mi, Access{mt->getRawSource(), ty, DCUCC_LOAD, false, align, at}, t, widest);
            emit_event(mi, DCUCC_WAIT, t);
            emit_access(mi, Access{mi.getRawDest(), ty, DCUCC_STORE, false, align, at}, t, widest);
        }
    }

    // The wave waits before `i` when `i` reads a loaded value that may still be
    // in flight: one loaded in this block since its last wait, or one that
    // reaches this block from outside within the same loop (the load of the
    // iteration before) before any wait here. Loads from outside the loop are
    // taken as complete.
    bool needs_wait(Instruction& i, const SmallPtrSetImpl<Value*>& pending, bool waited) const {
        for (Value* v : i.operands()) {
            if (!loaded_.count(v)) continue;
            if (pending.count(v)) return true;
            const auto* def = cast<Instruction>(v);
            if (!waited && (def->getParent() != i.getParent() || isa<PHINode>(def)) &&
                li_.getLoopFor(def->getParent()) == li_.getLoopFor(i.getParent()))
                return true;
        }
        return false;
    }

    void run_block(BasicBlock& bb) {
        std::vector<Instruction*> insts;
        for (Instruction& i : bb)
            if (!isa<PHINode>(i) && !isa<DbgInfoIntrinsic>(i)) insts.push_back(&i);
        SmallPtrSet<Value*, 16> pending;
        bool waited = false;
        Tally t;
        for (Instruction* i : insts) {
            if (is_own(*i)) continue;
            if (needs_wait(*i, pending, waited)) {
                emit_event(*i, DCUCC_WAIT, t);
                pending.clear();
                waited = true;
            }
            if (auto* mi = dyn_cast<MemIntrinsic>(i); mi && small_mem_intrinsic(*mi)) {
                emit_small_mem_intrinsic(*mi, t);
                pending.clear();
                waited = true;
                continue;
            }
            if (auto a = access_of(*i); a && !constant_operand(*a)) {
                if (const Join* j = joins_.find(*i)) {
                    // One wide access for the group, recorded at its leader; the others issue nothing.
                    if (j->leader == i)
                        emit_access(*i, Access{a->ptr, ArrayType::get(Type::getInt8Ty(i->getContext()), j->bytes),
                                               a->op, a->readonly, Align(j->bytes), j->offset}, t);
                } else {
                    emit_access(*i, *a, t);
                }
                if (loaded_.count(i)) pending.insert(i);
                continue;
            }
            // Recorded just after the barrier: before it, the lanes of a wave that
            // took different sides of a branch may arrive apart (NVIDIA's
            // independent thread scheduling) and would each write a record.
            if (auto* call = dyn_cast<CallBase>(i); call && is_barrier(*call, gpu_)) {
                emit_event(*i->getNextNode(), DCUCC_BARRIER, t, i);
                continue;
            }
            t += cost_of(*i, gpu_);
            if (isa<ReturnInst>(i)) emit_event(*i, DCUCC_COMPUTE, t);
        }
        if (!t.empty()) add_to_counters(*bb.getTerminator(), t);
    }

    void add_to_counters(Instruction& at, const Tally& t) {
        IRBuilder<> b(&at);
        const uint32_t add[3] = {t.n, t.slow, t.mid};
        AllocaInst* const c[3] = {count_, slow_, mid_};
        for (int k = 0; k < 3; ++k)
            if (add[k]) b.CreateStore(b.CreateAdd(b.CreateLoad(b.getInt32Ty(), c[k]), b.getInt32(add[k])), c[k]);
    }

    bool is_own(const Instruction& i) const { return own_.count(&i) != 0; }

    Function& f_;
    Gpu gpu_;
    LoopInfo& li_;
    const Joins& joins_;
    Meta& meta_;
    uint32_t& next_pc_;
    FunctionCallee mem_, event_;
    const DataLayout& dl_;
    SmallPtrSet<Value*, 32> loaded_;
    SmallPtrSet<const Instruction*, 8> own_;  // the counters' set-up and the launch reads, in the entry block
    AllocaInst *count_ = nullptr, *slow_ = nullptr, *mid_ = nullptr;
};

// memcpy, memmove and memset of a run-time or large size become the loops of
// loads and stores the backend emits for them, so that their accesses are
// recorded like any other (small constant ones are recorded as they stand).
void expand_mem_intrinsics(Function& f, const TargetTransformInfo& tti) {
    std::vector<MemIntrinsic*> todo;
    for (Instruction& i : instructions(f))
        if (auto* m = dyn_cast<MemIntrinsic>(&i); m && !small_mem_intrinsic(*m)) todo.push_back(m);
    for (MemIntrinsic* m : todo) {
        if (auto* c = dyn_cast<MemCpyInst>(m))
            expandMemCpyAsLoop(c, tti);
        else if (auto* mv = dyn_cast<MemMoveInst>(m))
#if LLVM_VERSION_MAJOR >= 17
            expandMemMoveAsLoop(mv, tti);
#else
            expandMemMoveAsLoop(mv);
#endif
        else if (auto* s = dyn_cast<MemSetInst>(m))
            expandMemSetAsLoop(s);
        else
            continue;
        m->eraseFromParent();
    }
}

}  // namespace

PreservedAnalyses DevicePass::run(Module& m, ModuleAnalysisManager& am) {
    const Gpu gpu = gpu_of(m);
    if (gpu == Gpu::None || m.getFunction("__dcucc_mem")) return PreservedAnalyses::all();
    auto& fam = am.getResult<FunctionAnalysisManagerModuleProxy>(m).getManager();
    LLVMContext& ctx = m.getContext();
    Type* i32 = Type::getInt32Ty(ctx);
    Type* i64 = Type::getInt64Ty(ctx);
    FunctionCallee mem = m.getOrInsertFunction("__dcucc_mem", Type::getVoidTy(ctx), i64, i32, i32, i32, i32, i32);
    FunctionCallee event = m.getOrInsertFunction("__dcucc_event", Type::getVoidTy(ctx), i32, i32, i32, i32, i32);

    Meta meta;
    meta.module = m.getSourceFileName();
    uint32_t next_pc = 16;
    std::vector<Function*> kernels;
    for (Function& f : m) {
        if (f.isDeclaration() || starts_with(f.getName(), "__dcucc_")) continue;
        expand_mem_intrinsics(f, fam.getResult<TargetIRAnalysis>(f));
        fam.invalidate(f, PreservedAnalyses::none());
        if (hoist_loads(f, gpu, fam.getResult<AAManager>(f))) fam.invalidate(f, PreservedAnalyses::none());
        const Joins joins(f, gpu, fam.getResult<ScalarEvolutionAnalysis>(f));
        FunctionInstrumenter(f, gpu, fam.getResult<LoopAnalysis>(f), joins, meta, next_pc, mem, event).run();
        if (is_kernel(f, gpu)) kernels.push_back(&f);
    }
    for (Function* k : kernels) {
        meta.kernels.push_back({k->getName().str(), unsigned(k->arg_size())});
        add_hidden_arg(*k, gpu);
    }
    if (!link_device_runtime(m, gpu)) return PreservedAnalyses::none();
    write_meta(meta, ctx);
    return PreservedAnalyses::none();
}

}  // namespace dcucc
