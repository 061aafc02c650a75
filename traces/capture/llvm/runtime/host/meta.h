// What the pass knows of each instrumented kernel and the host runtime needs:
// its parameter count (without the hidden control pointer), its resources in
// the uninstrumented build, and per recorded instruction (PC) its flags and
// source line. The pass embeds one text block per translation unit in the
// host object and registers it from a global constructor:
//
//   dcucc-meta 1
//   module SOURCE_PATH
//   kernel MANGLED params N
//   resources MANGLED vgprs N sgprs N scratch N     (any of the three)
//   site PC FLAGS FILE:LINE                         (FLAGS: 1 read-only, 2 integer atomic, 4 floating-point
//                                                   atomic; "-": no line)
//   anchor PC FUNCTION ld|st|atom SPACE, or bar     (what the site does, for machine.h)
//   cubin ARCH HEX                                  (the uninstrumented build's cubin, NVIDIA)
//
// PCs are numbered per module (translation unit), so a kernel's sites are
// those of the block that registered it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace dcucc::host {

struct Site {
    uint32_t flags = 0;  // kSiteReadOnly, kSiteAtomicInt, kSiteAtomicFloat
    std::string line;    // FILE:LINE; empty when unknown
    std::string function, what;  // from its `anchor` line; empty if none
};
using SiteMap = std::map<uint32_t, Site>;

struct KernelMeta {
    std::string mangled;
    std::string module;
    int32_t params = -1;
    bool has_vgprs = false, has_sgprs = false, has_scratch = false;
    uint32_t vgprs = 0, sgprs = 0;
    uint64_t scratch = 0;
    unsigned modules = 1;                  // blocks that registered this kernel: >1 makes its sites ambiguous
    std::shared_ptr<const SiteMap> sites;  // its module's
    std::shared_ptr<const std::string> cubin;  // its module's uninstrumented cubin (bytes), or null
};

enum : uint32_t { kSiteReadOnly = 1, kSiteAtomicInt = 2, kSiteAtomicFloat = 4 };  // as the pass writes them

class MetaRegistry {
public:
    // Adds one block; returns a one-line warning for each malformed line
    // (unknown lines are skipped without one).
    std::vector<std::string> add(const std::string& text);
    // The kernel's metadata, or null. Safe while other threads register.
    std::shared_ptr<const KernelMeta> find(const std::string& mangled) const;

private:
    mutable std::mutex mu_;
    std::map<std::string, std::shared_ptr<const KernelMeta>> kernels_;
};

// The process's registry: a function-local static, so that registrations from
// constructors that run before this library's own initialisers find it built.
MetaRegistry& meta_registry();

}  // namespace dcucc::host

// Called by the pass's constructor in every instrumented host object.
extern "C" void __dcucc_register_meta(const char* text);
