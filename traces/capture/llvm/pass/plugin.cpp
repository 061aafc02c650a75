// dcucc's pass plugin: `clang -fpass-plugin=libdcucc_pass.so` (dcucc adds it).
// It runs at the very end of the optimisation pipeline (OptimizerLast), so the
// accesses it records are those of the optimised IR the backend lowers: after
// inlining, unrolling, vectorisation and load/store merging. The runtime it
// calls is inlined and its counters promoted to registers right after.
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/Utils/Mem2Reg.h"

#include "device_pass.h"
#include "host_pass.h"

using namespace llvm;

namespace {

void add_dcucc(ModulePassManager& mpm) {
    mpm.addPass(dcucc::DevicePass());
    mpm.addPass(dcucc::HostPass());
    mpm.addPass(AlwaysInlinerPass());
    mpm.addPass(createModuleToFunctionPassAdaptor(PromotePass()));
}

}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
    return {LLVM_PLUGIN_API_VERSION, "dcucc", "1", [](PassBuilder& pb) {
#if LLVM_VERSION_MAJOR >= 20
                pb.registerOptimizerLastEPCallback(
                    [](ModulePassManager& mpm, OptimizationLevel, ThinOrFullLTOPhase) { add_dcucc(mpm); });
#else
                pb.registerOptimizerLastEPCallback(
                    [](ModulePassManager& mpm, OptimizationLevel) { add_dcucc(mpm); });
#endif
                // `opt -passes=dcucc` runs the same passes, for the tests.
                pb.registerPipelineParsingCallback(
                    [](StringRef name, ModulePassManager& mpm, ArrayRef<PassBuilder::PipelineElement>) {
                        if (name == "dcucc") {
                            add_dcucc(mpm);
                            return true;
                        }
                        if (name == "dcucc-device") {
                            mpm.addPass(dcucc::DevicePass());
                            return true;
                        }
                        if (name == "dcucc-host") {
                            mpm.addPass(dcucc::HostPass());
                            return true;
                        }
                        return false;
                    });
            }};
}
