// Memory records in the order the machine code issues them (DCUCC_ORDER=sass,
// docs/CAPTURE.md "Record order"). The device writes a wave's records in IR program
// order; ptxas's scheduler interleaves independent loads otherwise. Here each
// wave's records are walked through the uninstrumented build's SASS: a
// stretch of records that one straight-line segment of the SASS issues (no
// branch, branch target or barrier inside) is put in the order of the SASS
// instructions it maps to, which the records' own addresses pick among
// instructions of one line and operation (base register + offset). Records
// never move across a barrier, a wait, or from one segment visit to another
// (a loop's next iteration, another copy of an unrolled body); records whose
// site has no SASS counterpart keep their place.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "machine.h"
#include "meta.h"

namespace dcucc::host {

// One record of a wave as the walk sees it.
struct WaveItem {
    enum Kind : uint8_t { Mem, Barrier, Wait, Other } kind = Other;
    uint32_t pc = 0;    // its site
    uint8_t bytes = 0;  // per lane (Mem)
    int lane = -1;      // its lowest active lane (Mem)
    uint64_t addr = 0;  // that lane's address
};

// A straight-line piece of a function's SASS: [first, last), and where
// control goes after it.
struct SassSegment {
    int first = 0, last = 0;
    std::vector<int> next;  // successor segments
};

class SassOrder {
public:
    SassOrder(const MachineCode& mc, const SiteMap& sites);

    // The wave's items in SASS order: perm[k] is the item written at slot k
    // (a permutation that moves only Mem items, within stretches); at[i] is
    // the SASS instruction index item i was placed at (-1: none known).
    void order(const std::vector<WaveItem>& w, std::vector<size_t>& perm, std::vector<int>& at) const;

    const std::vector<SassSegment>& segments() const { return segs_; }

private:
    struct Anchor {
        int base = -1;    // interned base-register key, versioned by writes in its segment
        int64_t imm = 0;  // the constant offset
    };
    const std::vector<int>& candidates(const WaveItem& w) const;
    int host_prefix(int seg, const std::vector<WaveItem>& w, size_t i, const std::set<int>& used,
                    std::vector<int>* take, int limit = -1) const;
    int search(int cur, const std::vector<WaveItem>& w, size_t i) const;
    void walk(const std::vector<WaveItem>& w, std::vector<size_t>& perm, std::vector<int>& at) const;
    void place(const std::vector<WaveItem>& w, const std::vector<size_t>& items, const std::vector<int>& tentative,
               int seg, std::set<int>& used, std::vector<int>& at) const;

    const MachineCode& mc_;
    const SiteMap& sites_;
    std::vector<SassSegment> segs_;
    std::vector<int> seg_of_;      // per instruction
    std::vector<Anchor> anchors_;  // per instruction (meaningful for memory anchors)
    uint64_t span_ = 0;            // the largest difference of two offsets
    mutable std::map<std::string, std::vector<int>> cand_;  // (line, what, bytes) -> instruction indices
    mutable std::map<uint32_t, std::map<uint8_t, const std::vector<int>*>> cand_of_pc_;
    mutable std::unordered_map<std::string, std::pair<std::vector<size_t>, std::vector<int>>> shapes_;  // order()'s
};

// Records (lowest active lane, its address) onto instructions of one line
// and operation in one segment (SASS index, base-register key, offset): per
// base register, the register value that explains the most of its
// instructions; where several do, the assignment closest to program order
// (fewest pairs out of order). What addresses leave open goes in program
// order onto the rest in SASS order. Per record: a position in `a`, or -1.
struct AddrRec {
    int lane;
    uint64_t addr;
};
struct AddrAnchor {
    int index, base;
    int64_t imm;
};
std::vector<int> assign_by_address(const std::vector<AddrRec>& r, const std::vector<AddrAnchor>& a);

// The SASS segments of `f`: a new one at each branch target, after each
// branch, EXIT or RET, and around each BAR (which is a segment of its own).
std::vector<SassSegment> sass_segments(const dcutrace::SassFunction& f, std::vector<int>& seg_of);

// Bytes per lane of a SASS memory instruction, from its width modifier.
unsigned sass_bytes(const dcutrace::SassInstr& in);

// An address operand split into its base ("R2.64", "R2+UR4"; "" for none)
// and constant offset: "[R4.64+-0x1c]" -> ("R4.64", -28).
std::pair<std::string, int64_t> split_address(const std::string& operand);

}  // namespace dcucc::host
