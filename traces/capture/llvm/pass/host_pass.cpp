#include "host_pass.h"

#include <cctype>
#include <string>
#include <vector>

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include "compat.h"
#include "meta.h"

using namespace llvm;

namespace dcucc {

namespace {

// The entry points that launch a kernel or name one for a later launch.
const char* const kLaunchers[] = {"cudaLaunchKernel",      "cudaLaunchKernel_ptsz", "cuLaunchKernel",
                                  "cuLaunchKernel_ptsz",   "cuModuleGetFunction",   "hipLaunchKernel",
                                  "hipModuleLaunchKernel", "hipModuleGetFunction",  "hipExtModuleLaunchKernel",
                                  "hipExtLaunchKernel"};

// The host calls dcucc records (runtime/host/host_api.h; docs/CAPTURE.md, "Host calls"): copies,
// page-locked allocations, streams, waits and mapped pointers, of the CUDA runtime and of HIP. A
// call goes to `__dcucc_NAME`, of the same signature, which makes it and records it.
const char* const kHostCalls[] = {
    "cudaMemcpy",           "cudaMemcpyAsync",       "cudaHostAlloc",         "cudaMallocHost",
    "cudaHostRegister",     "cudaFreeHost",          "cudaHostUnregister",    "cudaHostGetDevicePointer",
    "cudaStreamCreate",     "cudaStreamCreateWithFlags", "cudaStreamDestroy", "cudaDeviceSynchronize",
    "cudaStreamSynchronize", "cudaEventRecord",      "cudaEventSynchronize",  "hipMemcpy",
    "hipMemcpyAsync",       "hipHostMalloc",         "hipHostRegister",       "hipHostFree",
    "hipHostUnregister",    "hipHostGetDevicePointer", "hipStreamCreate",     "hipStreamCreateWithFlags",
    "hipStreamDestroy",     "hipDeviceSynchronize",  "hipStreamSynchronize",  "hipEventRecord",
    "hipEventSynchronize"};

const char* const kStubPrefix = "__device_stub__";

// The kernel's name from its stub's: clang names the stub of `k` `__device_stub__k`
// before mangling, so in a mangled name the identifier's length grows by 15.
std::string kernel_of_stub(StringRef stub) {
    const std::string s = stub.str(), prefix = kStubPrefix;
    const size_t at = s.find(prefix);
    if (at == std::string::npos) return {};
    size_t digits = at;
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(s[digits - 1]))) --digits;
    if (digits == at) return s.substr(0, at) + s.substr(at + prefix.size());  // not mangled (extern "C")
    const unsigned long len = std::stoul(s.substr(digits, at - digits));
    return s.substr(0, digits) + std::to_string(len - prefix.size()) + s.substr(at + prefix.size());
}

template <size_t N>
bool listed(const char* const (&names)[N], StringRef n) {
    for (const char* l : names)
        if (n == l) return true;
    return false;
}

// Clang's kernel stub `__device_stub__NAME` has the kernel's parameters and
// passes them on as an array: the stub says both the name and the count. A
// launch elsewhere has them only if its argument array is a local of known size.
std::pair<int, std::string> launch_facts(CallBase& call) {
    const Function* caller = call.getFunction();
    if (std::string k = kernel_of_stub(caller->getName()); !k.empty()) return {int(caller->arg_size()), k};
    int n = -1;
    std::string name;
    if (call.arg_size() > 0)
        if (const auto* gv = dyn_cast<GlobalValue>(call.getArgOperand(0)->stripPointerCasts())) {
            name = kernel_of_stub(gv->getName());
            if (name.empty()) name = gv->getName().str();  // HIP: the kernel's handle has the kernel's name
        }
    for (Value* a : call.args())
        if (const auto* al = dyn_cast<AllocaInst>(a->stripPointerCasts()))
            if (const auto* at = dyn_cast<ArrayType>(al->getAllocatedType()); at && at->getElementType()->isPointerTy())
                n = int(at->getNumElements());
    return {n, name};
}

// Every call of a listed function goes to `__dcucc_NAME`; a launch gets two more arguments, the
// kernel's argument count and name.
bool rewrite_calls(Module& m) {
    std::vector<std::pair<CallBase*, bool>> calls;  // the call, whether it launches
    for (Function& f : m)
        for (BasicBlock& bb : f)
            for (Instruction& i : bb)
                if (auto* c = dyn_cast<CallBase>(&i))
                    if (const Function* callee = c->getCalledFunction(); callee && !callee->isVarArg()) {
                        if (listed(kLaunchers, callee->getName())) calls.emplace_back(c, true);
                        else if (listed(kHostCalls, callee->getName())) calls.emplace_back(c, false);
                    }
    LLVMContext& ctx = m.getContext();
    for (auto [c, launch] : calls) {
        FunctionType* ft = c->getFunctionType();
        std::vector<Type*> params(ft->param_begin(), ft->param_end());
        if (launch) {
            params.push_back(Type::getInt32Ty(ctx));
            params.push_back(PointerType::get(ctx, 0));
        }
        const std::string name = "__dcucc_" + c->getCalledFunction()->getName().str();
        FunctionCallee wrapper = m.getOrInsertFunction(name, FunctionType::get(ft->getReturnType(), params, false));
        IRBuilder<> b(c);
        std::vector<Value*> args(c->arg_begin(), c->arg_end());
        if (launch) {
            auto [nargs, kernel] = launch_facts(*c);
            args.push_back(b.getInt32(uint32_t(nargs)));
            args.push_back(kernel.empty() ? static_cast<Value*>(ConstantPointerNull::get(PointerType::get(ctx, 0)))
                                          : b.CreateGlobalStringPtr(kernel, "dcucc.kernel"));
        }
        // A launch in C++ code that may throw is an invoke, a block terminator.
        CallBase* nc = nullptr;
        if (auto* inv = dyn_cast<InvokeInst>(c))
            nc = b.CreateInvoke(wrapper, inv->getNormalDest(), inv->getUnwindDest(), args);
        else
            nc = b.CreateCall(wrapper, args);
        nc->setCallingConv(c->getCallingConv());
        c->replaceAllUsesWith(nc);
        c->eraseFromParent();
    }
    return !calls.empty();
}

// Every other call of the CUDA runtime or HIP (a declared function named cuda* or hip*) is API time
// too, as dcutrace counts it: it goes through `dcucc.api.NAME`, of the callee's type and attributes,
// which calls __dcucc_api_enter, the callee and __dcucc_api_exit (host_calls.h's host time).
bool is_api(const Function& f) {
    const StringRef n = f.getName();
    return f.isDeclaration() && !f.isVarArg() && (starts_with(n, "cuda") || starts_with(n, "hip")) &&
           !listed(kLaunchers, n) && !listed(kHostCalls, n);
}

Function* bracket(Module& m, Function& callee) {
    const std::string name = "dcucc.api." + callee.getName().str();
    if (Function* f = m.getFunction(name)) return f;
    LLVMContext& ctx = m.getContext();
    Function* f = Function::Create(callee.getFunctionType(), GlobalValue::InternalLinkage, name, &m);
    f->setAttributes(callee.getAttributes());
    f->setCallingConv(callee.getCallingConv());
    IRBuilder<> b(BasicBlock::Create(ctx, "", f));
    b.CreateCall(m.getOrInsertFunction("__dcucc_api_enter", Type::getVoidTy(ctx)));
    std::vector<Value*> args;
    for (Argument& a : f->args()) args.push_back(&a);
    CallInst* r = b.CreateCall(&callee, args);
    r->setAttributes(callee.getAttributes());
    r->setCallingConv(callee.getCallingConv());
    b.CreateCall(m.getOrInsertFunction("__dcucc_api_exit", Type::getVoidTy(ctx)));
    if (r->getType()->isVoidTy()) b.CreateRetVoid();
    else b.CreateRet(r);
    return f;
}

bool bracket_api_calls(Module& m) {
    std::vector<CallBase*> calls;
    for (Function& f : m)
        for (BasicBlock& bb : f)
            for (Instruction& i : bb)
                if (auto* c = dyn_cast<CallBase>(&i))
                    if (Function* callee = c->getCalledFunction();
                        callee && is_api(*callee) && c->getFunctionType() == callee->getFunctionType())
                        calls.push_back(c);
    for (CallBase* c : calls) c->setCalledFunction(bracket(m, *c->getCalledFunction()));
    return !calls.empty();
}

// A constructor that hands this module's device metadata to the host runtime.
bool embed_meta(Module& m) {
    const std::string text = read_meta(m.getSourceFileName(), m.getContext());
    if (text.empty()) return false;
    LLVMContext& ctx = m.getContext();
    Type* ptr = PointerType::get(ctx, 0);
    FunctionCallee reg = m.getOrInsertFunction("__dcucc_register_meta", Type::getVoidTy(ctx), ptr);
    Function* ctor = Function::Create(FunctionType::get(Type::getVoidTy(ctx), false), GlobalValue::InternalLinkage,
                                      "dcucc.register_meta", &m);
    IRBuilder<> b(BasicBlock::Create(ctx, "", ctor));
    b.CreateCall(reg, {b.CreateGlobalStringPtr(text, "dcucc.meta")});
    b.CreateRetVoid();
    appendToGlobalCtors(m, ctor, 0);
    return true;
}

}  // namespace

PreservedAnalyses HostPass::run(Module& m, ModuleAnalysisManager&) {
    const Triple t(m.getTargetTriple());
    if (t.getArch() == Triple::amdgcn || t.isNVPTX()) return PreservedAnalyses::all();
    const bool changed = rewrite_calls(m) | bracket_api_calls(m) | embed_meta(m);
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace dcucc
