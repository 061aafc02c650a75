#include "assemble.h"

#include "timeline.h"

#include <algorithm>
#include <set>

namespace dcutrace {

using dcusim::trace::MemAccess;
using dcusim::trace::Record;
using dcusim::trace::RecKind;

namespace {

dcusim::trace::Space space_of(uint32_t info) {
    switch (raw_space(info)) {
        case RawShared: return dcusim::trace::Space::Lds;
        case RawLocal: return dcusim::trace::Space::Local;
        default: return dcusim::trace::Space::Global;
    }
}

bool in_ranges(const AddressRanges& r, uint64_t a) {
    for (const auto& [b, e] : r)
        if (a >= b && a < e) return true;
    return false;
}

}  // namespace

AssembleStats assemble_launch(LaunchCapture& launch, const SassFunction* sass, const AddressRanges& const_ranges,
                              dcusim::trace::RecordSink& out) {
    AssembleStats st;
    TimelineCounts counts;
    auto& ins = launch.instrs;
    std::stable_sort(ins.begin(), ins.end(), [](const CapturedInstr& a, const CapturedInstr& b) {
        return a.block != b.block ? a.block < b.block : a.warp < b.warp;
    });

    Record k;
    k.kind = RecKind::Kernel;
    k.kernel = launch.kernel;
    out.write(k);

    // Declarations: read-only loads and source lines of every captured PC.
    std::set<uint64_t> pcs;
    for (const auto& c : ins) pcs.insert(c.pc);
    for (uint64_t pc : pcs) {
        int i = sass ? sass->index(pc) : -1;
        if (i < 0) {
            st.unknown_pcs += sass ? 1 : 0;
            continue;
        }
        const SassInstr& in = sass->instrs[i];
        Record d;
        d.kind = RecKind::PcInfo;
        d.pc = pc;
        d.pc_flags = uint8_t((in.readonly ? dcusim::trace::PcReadOnly : 0) | (in.line.empty() ? 0 : dcusim::trace::PcHasLine));
        d.pc_line = in.line;
        if (d.pc_flags) out.write(d);
    }

    const uint64_t threads = launch.kernel.block.count();
    size_t i = 0;
    while (i < ins.size()) {
        const uint64_t block = ins[i].block;
        const uint32_t warp = ins[i].warp;
        Record w;
        w.kind = RecKind::Wave;
        w.block = block;
        w.wave = warp;
        out.write(w);
        WarpTimeline tl(sass, out, counts);
        for (; i < ins.size() && ins[i].block == block && ins[i].warp == warp; ++i) {
            const CapturedInstr& c = ins[i];
            const int idx = sass ? sass->index(c.pc) : -1;
            tl.advance_to(idx);
            Record r;
            if (raw_kind(c.info) == RawBarrier) {
                r.kind = RecKind::Barrier;
                r.pc = c.pc;
                ++st.barriers;
            } else {
                r.kind = RecKind::Mem;
                MemAccess& m = r.mem;
                m.op = dcusim::trace::Op(raw_op(c.info));
                m.space = space_of(c.info);
                m.bytes = uint8_t(1u << raw_log2_bytes(c.info));
                m.pc = c.pc;
                m.mask = c.mask;
                m.mask_all = c.mask == dcusim::trace::full_lane_mask(threads, warp, kWarpLanes);
                uint64_t first;
                if (c.info & kInfoAffine) {
                    m.mode = dcusim::trace::AddrMode::Affine;
                    m.base = c.base;
                    m.stride = c.stride;
                    first = m.lane_addr_affine(unsigned(__builtin_ctz(c.mask)));
                } else {
                    m.mode = dcusim::trace::AddrMode::List;
                    const unsigned n = dcusim::trace::popcount64(c.mask);
                    m.addrs.assign(launch.addrs.begin() + c.addr_index, launch.addrs.begin() + c.addr_index + n);
                    first = m.addrs.front();
                }
                if (m.space == dcusim::trace::Space::Global && m.op == dcusim::trace::Op::Load &&
                    in_ranges(const_ranges, first)) {
                    m.space = dcusim::trace::Space::Const;
                    ++st.const_accesses;
                }
                ++st.mem;
            }
            out.write(r);
            tl.issued(idx);
        }
        tl.finish();
    }
    st.waits += counts.waits;
    st.compute += counts.compute;
    st.long_compute += counts.long_compute;
    st.mid_compute += counts.mid_compute;
    Record e;
    e.kind = RecKind::End;
    out.write(e);
    return st;
}

}  // namespace dcutrace
