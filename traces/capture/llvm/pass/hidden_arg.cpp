#include "hidden_arg.h"

#include <vector>

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include "compat.h"

using namespace llvm;

namespace dcucc {

namespace {

// The parameter count of a kernel, as a global the host runtime can read
// through the module API (hipModuleGetGlobal, cuModuleGetGlobal) when a launch
// does not say how many arguments it passes.
void export_param_count(Function& k, unsigned params) {
    Module& m = *k.getParent();
    Type* i32 = Type::getInt32Ty(m.getContext());
    auto* g = new GlobalVariable(m, i32, true, GlobalValue::ExternalLinkage, ConstantInt::get(i32, params),
                                 "__dcucc_nparams_" + k.getName(), nullptr, GlobalValue::NotThreadLocal, 1);
    g->setVisibility(GlobalValue::ProtectedVisibility);
    g->setAlignment(Align(4));
}

}  // namespace

Function* add_hidden_arg(Function& old, Gpu) {
    Module& m = *old.getParent();
    LLVMContext& ctx = m.getContext();
    FunctionType* ot = old.getFunctionType();
    std::vector<Type*> params(ot->param_begin(), ot->param_end());
    Type* ptr = PointerType::get(ctx, 0);
    params.push_back(ptr);
    FunctionType* nt = FunctionType::get(ot->getReturnType(), params, false);
    Function* k = Function::Create(nt, old.getLinkage(), old.getAddressSpace(), "", &m);
    k->copyAttributesFrom(&old);
    k->setCallingConv(old.getCallingConv());
    k->setSubprogram(old.getSubprogram());
    old.setSubprogram(nullptr);
    k->takeName(&old);
    move_blocks(old, *k);
    auto arg = k->arg_begin();
    for (Argument& a : old.args()) {
        arg->takeName(&a);
        a.replaceAllUsesWith(&*arg);
        ++arg;
    }
    arg->setName("dcucc.records");
    // Metadata (nvvm.annotations) and any uses of the kernel's address now name the new kernel.
    old.replaceAllUsesWith(k);
    old.eraseFromParent();

    IRBuilder<> b(&*k->getEntryBlock().getFirstInsertionPt());
    FunctionCallee enter = m.getOrInsertFunction("__dcucc_enter", Type::getVoidTy(ctx), ptr);
    b.CreateCall(enter, {&*arg});
    export_param_count(*k, unsigned(ot->getNumParams()));
    return k;
}

}  // namespace dcucc
