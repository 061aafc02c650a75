#include "target.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"
#include "compat.h"

using namespace llvm;

namespace dcucc {

Gpu gpu_of(const Module& m) {
    const Triple t(m.getTargetTriple());
    if (t.getArch() == Triple::amdgcn) return Gpu::Amdgcn;
    if (t.getArch() == Triple::nvptx64 || t.getArch() == Triple::nvptx) return Gpu::Nvptx;
    return Gpu::None;
}

namespace {

// Clang marks CUDA kernels in `!nvvm.annotations` as {ptr @f, !"kernel", i32 1}
// (newer LLVMs also use the ptx_kernel calling convention).
bool nvvm_annotated_kernel(const Function& f) {
    const NamedMDNode* md = f.getParent()->getNamedMetadata("nvvm.annotations");
    if (!md) return false;
    for (const MDNode* n : md->operands()) {
        if (n->getNumOperands() < 3) continue;
        const auto* v = dyn_cast_or_null<ValueAsMetadata>(n->getOperand(0).get());
        if (!v || v->getValue() != &f) continue;
        for (unsigned i = 1; i + 1 < n->getNumOperands(); i += 2) {
            const auto* key = dyn_cast_or_null<MDString>(n->getOperand(i).get());
            if (key && key->getString() == "kernel") return true;
        }
    }
    return false;
}

}  // namespace

bool is_kernel(const Function& f, Gpu gpu) {
    if (f.isDeclaration()) return false;
    if (gpu == Gpu::Amdgcn) return f.getCallingConv() == CallingConv::AMDGPU_KERNEL;
    if (gpu == Gpu::Nvptx) return f.getCallingConv() == CallingConv::PTX_Kernel || nvvm_annotated_kernel(f);
    return false;
}

std::optional<uint32_t> space_of(unsigned as, Gpu gpu) {
    switch (as) {
        case 0: return DCUCC_GENERIC;
        case 1: return DCUCC_GLOBAL;
        case 3: return DCUCC_LDS;
        case 4: return DCUCC_CONST;
        case 5: return DCUCC_LOCAL;
        case 6:  // AMDGPU: 32-bit constant addresses
            if (gpu == Gpu::Amdgcn) return DCUCC_CONST;
            return std::nullopt;
        default: return std::nullopt;  // NVPTX param (101), AMDGPU region (2), buffers (7, 8)
    }
}

std::optional<IntrinsicAccess> intrinsic_access(CallBase& call, Gpu gpu) {
    const Function* f = call.getCalledFunction();
    if (!f || !f->isIntrinsic() || call.arg_size() == 0 || !call.getArgOperand(0)->getType()->isPointerTy())
        return std::nullopt;
    const StringRef n = f->getName();
    IntrinsicAccess a;
    a.ptr = call.getArgOperand(0);
    a.type = call.getType();
    if (gpu == Gpu::Nvptx) {
        if (starts_with(n, "llvm.nvvm.ldg.global.") || starts_with(n, "llvm.nvvm.ldu.global.")) {
            a.readonly = true;
            return a;
        }
        if (starts_with(n, "llvm.nvvm.atomic.")) {
            a.op = DCUCC_ATOMIC;
            return a;
        }
        return std::nullopt;
    }
    if (gpu == Gpu::Amdgcn) {
        const bool atomic = starts_with(n, "llvm.amdgcn.global.atomic.") || starts_with(n, "llvm.amdgcn.flat.atomic.") ||
                            starts_with(n, "llvm.amdgcn.atomic.") || starts_with(n, "llvm.amdgcn.ds.fadd") ||
                            starts_with(n, "llvm.amdgcn.ds.fmin") || starts_with(n, "llvm.amdgcn.ds.fmax") ||
                            starts_with(n, "llvm.amdgcn.ds.ordered.");
        if (!atomic || a.type->isVoidTy()) return std::nullopt;
        a.op = DCUCC_ATOMIC;
        return a;
    }
    return std::nullopt;
}

bool is_barrier(const CallBase& call, Gpu gpu) {
    const Function* f = call.getCalledFunction();
    if (!f || !f->isIntrinsic()) return false;
    const StringRef n = f->getName();
    if (gpu == Gpu::Nvptx)
        return starts_with(n, "llvm.nvvm.barrier0") || starts_with(n, "llvm.nvvm.barrier.sync") ||
               starts_with(n, "llvm.nvvm.bar.sync") || starts_with(n, "llvm.nvvm.barrier.cta.sync") ||
               n == "llvm.nvvm.barrier";
    if (gpu == Gpu::Amdgcn) return n == "llvm.amdgcn.s.barrier";
    return false;
}

uint64_t copy_piece_bytes(Gpu gpu) { return gpu == Gpu::Nvptx ? 8 : 16; }

}  // namespace dcucc
