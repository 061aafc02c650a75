#include "joins.h"

#include "compat.h"

#include <algorithm>

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace dcucc {

namespace {

constexpr uint64_t kWidest = 16;  // bytes per lane of the widest load or store

bool used_in(const Value& v, const Function& f) {
    for (const User* u : v.users()) {
        if (const auto* i = dyn_cast<Instruction>(u)) {
            if (i->getFunction() == &f) return true;
        } else if (isa<ConstantExpr>(u) && used_in(*u, f)) {
            return true;
        }
    }
    return false;
}

uint64_t declared_align(const GlobalVariable& gv) { return gv.getAlign().valueOrOne().value(); }
uint64_t declared_align(const AllocaInst& a) { return a.getAlign().value(); }

// Objects laid out one after the other from a window base aligned at `base`,
// each at its declared alignment: the alignment each one then has.
template <typename Obj, typename Size>
void lay_out(const std::vector<Obj*>& objs, uint64_t base, Size size_of, std::map<const Value*, uint64_t>& out) {
    uint64_t at = 0;
    for (Obj* o : objs) {
        const uint64_t declared = declared_align(*o);
        at = (at + declared - 1) / declared * declared;
        const uint64_t placed = at == 0 ? base : std::min<uint64_t>(base, at & -at);
        out[o] = std::max(declared, placed);
        at += size_of(*o);
    }
}

struct Candidate {
    Instruction* inst;
    size_t order;  // position in the window
    const Value* object;
    unsigned space;
    uint64_t bytes;
};

// A plain load or store of 4 or 8 bytes a lane: what the backends join.
std::optional<std::pair<Value*, uint64_t>> joinable(Instruction& i, const DataLayout& dl) {
    const auto* l = dyn_cast<LoadInst>(&i);
    const auto* s = dyn_cast<StoreInst>(&i);
    if (!(l && l->isSimple()) && !(s && s->isSimple())) return std::nullopt;
    Value* ptr = getLoadStorePointerOperand(&i);
    Type* ty = getLoadStoreType(&i);
    // A constant address on NVIDIA is an operand of its use, not a load (device_pass.cpp).
    if (isa<Constant>(ptr) || !ty->isSized() || ty->isAggregateType()) return std::nullopt;
    const uint64_t bytes = dl.getTypeStoreSize(ty).getFixedValue();
    if (bytes != 4 && bytes != 8) return std::nullopt;
    return std::make_pair(ptr, bytes);
}

}  // namespace

Placement placement_of(Gpu gpu) {
    // ptxas places a kernel's shared variables in their order from the window's
    // start and joins accesses by that placement, not by the PTX's `.align`
    // (probe/merge_probe.cu; its SASS in validation/results/h200-dcucc/merge_probe). It joins private stores only up to 8 bytes where 16 were
    // possible (STL.64 in spill and the probe's lo_loop): the frame is taken as
    // 8-aligned (assumed from those two). AMDGPU's code generator joins by the
    // IR's alignment (its load/store vectoriser); its machine-level joins
    // (ds_read2) are not modelled.
    if (gpu == Gpu::Nvptx) return {16, 8};
    return {};
}

Joins::Joins(Function& f, Gpu gpu, ScalarEvolution& se) : dl_(f.getParent()->getDataLayout()), se_(se) {
    const Placement place = placement_of(gpu);
    if (place.shared_base) {
        std::vector<GlobalVariable*> shared;
        for (GlobalVariable& gv : f.getParent()->globals())
            if (space_of(gv.getAddressSpace(), gpu) == DCUCC_LDS && used_in(gv, f)) shared.push_back(&gv);
        lay_out(shared, place.shared_base,
                [&](GlobalVariable& gv) { return dl_.getTypeAllocSize(gv.getValueType()).getFixedValue(); },
                object_align_);
    }
    if (place.local_base) {
        std::vector<AllocaInst*> frame;
        for (Instruction& i : f.getEntryBlock())
            if (auto* a = dyn_cast<AllocaInst>(&i); a && a->isStaticAlloca()) frame.push_back(a);
        lay_out(frame, place.local_base,
                [&](AllocaInst& a) { return a.getAllocationSizeInBits(dl_).value_or(TypeSize::getFixed(0)) / 8; },
                object_align_);
    }
    for (BasicBlock& bb : f) {
        std::vector<Instruction*> loads, stores;
        for (Instruction& i : bb) {
            auto j = joinable(i, dl_);
            if (j && isa<LoadInst>(i)) {
                loads.push_back(&i);
                if (!stores.empty()) run_window(stores, false), stores.clear();
                continue;
            }
            if (j) {
                stores.push_back(&i);
                if (!loads.empty()) run_window(loads, true), loads.clear();
                continue;
            }
            if (isa<DbgInfoIntrinsic>(i)) continue;
            if (i.mayWriteToMemory() && !loads.empty()) run_window(loads, true), loads.clear();
            if (i.mayReadOrWriteMemory() && !stores.empty()) run_window(stores, false), stores.clear();
        }
        if (!loads.empty()) run_window(loads, true);
        if (!stores.empty()) run_window(stores, false);
    }
}

// One window: loads with no write between them, or stores with no other
// access between them. Accesses to one object at constant distances join from
// the lowest address up, as wide as the first one's alignment allows.
void Joins::run_window(const std::vector<Instruction*>& accesses, bool loads) {
    std::map<std::tuple<const Value*, unsigned, uint64_t>, std::vector<std::pair<int64_t, size_t>>> groups;
    std::map<std::tuple<const Value*, unsigned, uint64_t>, const SCEV*> first;
    for (size_t n = 0; n < accesses.size(); ++n) {
        Value* ptr = getLoadStorePointerOperand(accesses[n]);
        const uint64_t bytes = joinable(*accesses[n], dl_)->second;
        const auto key = std::make_tuple(getUnderlyingObject(ptr, 12), ptr->getType()->getPointerAddressSpace(), bytes);
        const SCEV* at = se_.getSCEV(ptr);
        auto [it, fresh] = first.emplace(key, at);
        const auto* d = dyn_cast<SCEVConstant>(se_.getMinusSCEV(at, it->second));
        if (!d) continue;
        groups[key].push_back({d->getAPInt().getSExtValue(), n});
    }
    for (auto& [key, members] : groups) {
        const uint64_t bytes = std::get<2>(key);
        std::stable_sort(members.begin(), members.end());
        for (size_t i = 0; i < members.size();) {
            Instruction& head = *accesses[members[i].second];
            const uint64_t align = alignment(head);
            size_t end = i + 1;
            for (size_t k = i + 1; k < members.size(); ++k) {
                const uint64_t total = (k - i + 1) * bytes;
                if (members[k].first != members[i].first + int64_t((k - i) * bytes) || total > kWidest) break;
                if ((total & (total - 1)) == 0 && total <= align) end = k + 1;
            }
            if (end - i >= 2) add(accesses, members, i, end, bytes, loads);
            i = end;
        }
    }
}

// The alignment the backend can prove for an access: its own, or that of its
// offset from a shared or local object in the placement laid out above.
uint64_t Joins::alignment(Instruction& i) const {
    const uint64_t own = getLoadStoreAlignment(&i).value();
    Value* ptr = getLoadStorePointerOperand(&i);
    auto placed = object_align_.find(getUnderlyingObject(ptr, 12));
    if (placed == object_align_.end()) return own;
    const SCEV* at = se_.getSCEV(ptr);
    const auto* base = dyn_cast<SCEVUnknown>(se_.getPointerBase(at));
    if (!base || getUnderlyingObject(base->getValue(), 12) != placed->first) return own;
    const uint64_t tz = std::min<uint64_t>(min_trailing_zeros(se_, se_.getMinusSCEV(at, base)), 16);
    return std::max(own, std::min<uint64_t>(placed->second, uint64_t(1) << tz));
}

// Loads are recorded at the first of the group, stores at the last: where the
// joined instruction has all its operands.
void Joins::add(const std::vector<Instruction*>& accesses, const std::vector<std::pair<int64_t, size_t>>& members,
                size_t from, size_t to, uint64_t bytes, bool loads) {
    size_t lead = from;
    for (size_t k = from; k < to; ++k)
        if (loads ? members[k].second < members[lead].second : members[k].second > members[lead].second) lead = k;
    const size_t index = joins_.size();
    joins_.push_back({accesses[members[lead].second], members[from].first - members[lead].first,
                      uint64_t(to - from) * bytes});
    for (size_t k = from; k < to; ++k) member_[accesses[members[k].second]] = index;
}

}  // namespace dcucc
