// What the device compile knows and the host runtime needs: each kernel's
// parameter count (without the hidden one) and, per recorded instruction, its
// flags and source line. Written by the device pass to $DCUCC_META_FILE; the
// host pass of the same translation unit embeds its module's part in the host
// object, registered at start-up with the host runtime.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

namespace dcucc {

// A site's flags (the `site` line's FLAGS): a read-only load; an atomic on integers or on floating point.
enum : uint32_t { kSiteReadOnly = 1, kSiteAtomicInt = 2, kSiteAtomicFloat = 4 };

struct Meta {
    struct Kernel {
        std::string name;
        unsigned params;
    };
    struct Site {
        uint32_t pc;
        uint32_t flags;    // kSiteReadOnly, kSiteAtomicInt, kSiteAtomicFloat
        std::string line;  // FILE:LINE, or "-"
        // For matching the site to the uninstrumented build's machine code:
        // its function (mangled) and what it does, "ld|st|atom SPACE" or "bar".
        std::string function, what;
    };
    std::string module;
    std::vector<Kernel> kernels;
    std::vector<Site> sites;
};

// Appends `meta` to $DCUCC_META_FILE, if set (a failure is a compile error).
void write_meta(const Meta& meta, llvm::LLVMContext& ctx);

// The lines of $DCUCC_META_FILE that belong to module `source` (the
// `dcucc-meta` header and its `module` line included); empty if none.
std::string read_meta(const std::string& source, llvm::LLVMContext& ctx);

}  // namespace dcucc
