#include "runtime_link.h"

#include <dlfcn.h>

#include <cstdlib>
#include <string>

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Attributes.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "compat.h"

using namespace llvm;

namespace dcucc {

namespace {

std::string runtime_path(Gpu gpu) {
    if (const char* p = std::getenv("DCUCC_DEVICE_RUNTIME"); p && *p) return p;
    Dl_info info;
    std::string dir = ".";
    if (dladdr(reinterpret_cast<void*>(&link_device_runtime), &info) && info.dli_fname)
        dir = sys::path::parent_path(info.dli_fname).str();
    return dir + (gpu == Gpu::Amdgcn ? "/dcucc_device_amdgcn.bc" : "/dcucc_device_nvptx.bc");
}

// The runtime is compiled for a baseline processor; once linked it must carry
// the kernel's processor and features, or it could not be inlined into it.
void adopt_target_attributes(Module& m) {
    const Function* model = nullptr;
    for (const Function& f : m)
        if (!f.isDeclaration() && !starts_with(f.getName(), "__dcucc_") && f.hasFnAttribute("target-cpu")) {
            model = &f;
            break;
        }
    for (Function& f : m) {
        if (f.isDeclaration() || !starts_with(f.getName(), "__dcucc_")) continue;
        for (const char* key : {"target-cpu", "target-features"}) {
            f.removeFnAttr(key);
            if (model && model->hasFnAttribute(key)) f.addFnAttr(model->getFnAttribute(key));
        }
        f.setLinkage(GlobalValue::InternalLinkage);
    }
    if (GlobalVariable* ctl = m.getGlobalVariable("__dcucc_ctl")) ctl->setLinkage(GlobalValue::InternalLinkage);
}

}  // namespace

bool link_device_runtime(Module& m, Gpu gpu) {
    LLVMContext& ctx = m.getContext();
    const std::string path = runtime_path(gpu);
    auto buf = MemoryBuffer::getFile(path);
    if (!buf) {
        ctx.emitError("dcucc: cannot read the device runtime " + path + ": " + buf.getError().message());
        return false;
    }
    auto rt = parseBitcodeFile((*buf)->getMemBufferRef(), ctx);
    if (!rt) {
        ctx.emitError("dcucc: " + path + " is not bitcode of this LLVM: " + toString(rt.takeError()));
        return false;
    }
    (*rt)->setDataLayout(m.getDataLayout());
    (*rt)->setTargetTriple(m.getTargetTriple());
    if (Linker::linkModules(m, std::move(*rt), Linker::Flags::LinkOnlyNeeded)) {
        ctx.emitError("dcucc: linking the device runtime " + path + " failed");
        return false;
    }
    adopt_target_attributes(m);
    return true;
}

}  // namespace dcucc
