#include "meta.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace dcucc {

void write_meta(const Meta& meta, llvm::LLVMContext& ctx) {
    const char* path = std::getenv("DCUCC_META_FILE");
    if (!path || !*path) return;
    std::ostringstream s;
    s << "dcucc-meta 1\nmodule " << meta.module << "\n";
    for (const auto& k : meta.kernels) s << "kernel " << k.name << " params " << k.params << "\n";
    for (const auto& x : meta.sites) s << "site " << x.pc << " " << x.flags << " " << x.line << "\n";
    for (const auto& x : meta.sites)
        if (!x.function.empty()) s << "anchor " << x.pc << " " << x.function << " " << x.what << "\n";
    std::ofstream out(path, std::ios::app);
    out << s.str();
    if (!out) ctx.emitError(std::string("dcucc: cannot write ") + path);
}

std::string read_meta(const std::string& source, llvm::LLVMContext&) {
    const char* path = std::getenv("DCUCC_META_FILE");
    if (!path || !*path) return {};
    std::ifstream in(path);
    std::string line, block, found;
    bool mine = false;
    // A file holds blocks from each device compile (one per offload architecture)
    // and from dcucc's uninstrumented compile (resources): all of this module's are kept.
    auto close = [&] {
        if (mine) found += block;
        block.clear();
        mine = false;
    };
    while (std::getline(in, line)) {
        if (line.rfind("dcucc-meta ", 0) == 0) close();
        if (line == "module " + source) mine = true;
        block += line + "\n";
    }
    close();
    return found;
}

}  // namespace dcucc
