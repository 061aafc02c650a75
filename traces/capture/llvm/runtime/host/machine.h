// compute and wait records from the machine code of the uninstrumented build
// (docs/CAPTURE.md, "compute and wait records"). The pass numbers its record
// sites and says what each does (`anchor` lines, meta.h); the wrapper embeds
// the uninstrumented build's cubin. Here the cubin is disassembled with
// nvdisasm, each kernel's sites are matched to its SASS memory instructions
// and barriers (the anchors of dcutrace's SASS walk) in program order, and
// assemble_launch then walks the SASS between the matched anchors as dcutrace
// does (traces/capture/nvidia/timeline.h).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "meta.h"
#include "traces/capture/nvidia/sass.h"

namespace dcucc::host {

// A kernel's SASS and which instruction each matched site is.
struct MachineCode {
    std::shared_ptr<const std::map<std::string, dcutrace::SassFunction>> module;  // keeps `f` alive
    const dcutrace::SassFunction* f = nullptr;
    std::map<uint32_t, int> index_of_site;  // site PC -> instruction index in f
    size_t sites = 0;                       // the kernel's sites, matched or not (none excluded)

    int index(uint32_t pc) const {
        auto it = index_of_site.find(pc);
        return it == index_of_site.end() ? -1 : it->second;
    }
};

// What a SASS anchor does, in the words of the pass's `anchor` lines
// ("ld global", "atom lds", "bar"); empty if it is not one the pass records.
std::string sass_what(const dcutrace::SassInstr& in);

// Whether a site's operation may be this SASS anchor's: the same operation in
// the same space, or either space generic (LD/ST resolve at run time; the IR
// may still say generic where ptxas proved the space).
bool same_what(const std::string& site, const std::string& sass);

// Whether a site is left out of matching, and of the sites counted, on
// purpose: a constant-space load (the kernel parameters and launch
// dimensions the pass records at entry, __constant__ data). ptxas reads the
// constant bank with LDC/ULDC or an operand c[B][...], none of which
// dcutrace's SASS walk takes as an anchor: such a site has nothing to match,
// and its instructions count as compute, as in dcutrace's traces.
bool excluded_site(const Site& s);

// Matches the sites of `function` (in PC order, which is the pass's program
// order) to the anchors of `f` (layout order): the longest common subsequence
// of (source line, operation) pairs. Sites of another function are ignored.
std::map<uint32_t, int> match_sites(const SiteMap& sites, const std::string& function,
                                    const dcutrace::SassFunction& f);

// `nvdisasm -c -g` of `cubin` (bytes): the text, or empty with `why` set.
// The disassembler is $DCUCC_NVDISASM, else $CUDA_HOME/bin/nvdisasm, else
// /usr/local/cuda/bin/nvdisasm, else nvdisasm on PATH.
std::string disassemble(const std::string& cubin, std::string& why);

// The kernel's machine code: null (with `why`) when the module has no cubin,
// nvdisasm fails, the cubin lacks the function, or no site matched. Modules
// are disassembled once per process.
std::shared_ptr<const MachineCode> machine_code(const KernelMeta& k, std::string& why);

}  // namespace dcucc::host
