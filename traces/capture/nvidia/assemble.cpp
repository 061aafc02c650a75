#include "assemble.h"

#include "timeline.h"

#include <algorithm>
#include <map>
#include <memory>
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

// The launch's SASS with the stack-slot LDL/STL that no record of the launch came from marked synth_local
// (written from the SASS where the walk crosses them, no longer anchors): the Sanitizer does not report
// spill code (docs/CAPTURE.md, "Spills"). A guarded one stays an anchor: whether it ran is unknown.
SassFunction with_spills(const SassFunction& f, const std::set<uint64_t>& pcs, uint64_t& marked) {
    SassFunction g = f;
    marked = 0;
    for (auto& in : g.instrs)
        if (in.stack_local && !in.guarded && !pcs.count(in.offset)) {
            in.synth_local = true;
            in.anchor = false;
            ++marked;
        }
    return g;
}

// The stack pointer's offset in the local window: from a captured frame-slot access where there is one
// (address less the slot's offset), else the window's top (16 MiB) less the kernel's frame, where the
// H200 keeps it (shared_compute's spill under capture: R1 = 0xfffb80 with a 384-byte frame).
uint64_t stack_base(const LaunchCapture& launch, const SassFunction& f) {
    for (const auto& c : launch.instrs) {
        if (raw_kind(c.info) != RawMem || raw_space(c.info) != RawLocal) continue;
        const int i = f.index(c.pc);
        if (i < 0 || !f.instrs[i].stack_local) continue;
        const uint64_t a = (c.info & kInfoAffine) ? c.base + uint64_t(__builtin_ctz(c.mask)) * uint64_t(c.stride)
                                                  : launch.addrs[c.addr_index];
        return a - f.instrs[i].stack_offset;
    }
    return ((uint64_t(1) << 24) - launch.kernel.scratch_bytes) & ~uint64_t(15);
}

// How often the launch's warps went from one anchor to the next (LoopTrips): `ins` in warp order.
std::map<std::pair<int, int>, uint64_t> anchor_walks(const std::vector<CapturedInstr>& ins, const SassFunction& f) {
    std::map<std::pair<int, int>, uint64_t> walks;
    int last = -1;
    for (size_t i = 0; i < ins.size(); ++i) {
        if (i > 0 && (ins[i].block != ins[i - 1].block || ins[i].warp != ins[i - 1].warp)) {
            if (last >= 0) ++walks[{last, LoopTrips::kExit}];
            last = -1;
        }
        const int idx = f.index(ins[i].pc);
        if (idx < 0) continue;
        ++walks[{last, idx}];
        last = idx;
    }
    if (last >= 0) ++walks[{last, LoopTrips::kExit}];
    return walks;
}

}  // namespace

AssembleStats assemble_launch(LaunchCapture& launch, const SassFunction* sass, const AddressRanges& const_ranges,
                              dcusim::trace::RecordSink& out, const PcCounts* profile) {
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
        d.pc_flags = uint8_t((in.readonly ? dcusim::trace::PcReadOnly : 0) | (in.line.empty() ? 0 : dcusim::trace::PcHasLine) |
                             dcusim::trace::pc_flag_of(in.atomic));
        d.pc_line = in.line;
        if (d.pc_flags) out.write(d);
    }

    SassFunction spilled;
    if (sass) {
        spilled = with_spills(*sass, pcs, st.spill_pcs);
        sass = &spilled;
    }
    std::unique_ptr<LoopTrips> loops;
    if (sass && profile) {
        loops = std::make_unique<LoopTrips>(*sass, *profile, anchor_walks(ins, *sass));
        st.loops_filled = loops->loops();
        if (st.loops_filled == 0) loops.reset();  // nothing to fill: the walks need not ask at every step
    }
    LocalFrame frame;
    frame.stack_base = sass ? stack_base(launch, *sass) : 0;
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
        frame.mask = dcusim::trace::full_lane_mask(threads, warp, kWarpLanes);
        frame.mask_all = true;
        tl.set_frame(&frame);
        tl.set_loops(loops.get());
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
            frame.mask = c.mask;  // spill code after it runs with its lanes
            frame.mask_all = c.mask == dcusim::trace::full_lane_mask(threads, warp, kWarpLanes);
        }
        tl.finish();
    }
    st.waits += counts.waits;
    st.kept_waits += counts.kept_waits;
    st.compute += counts.compute;
    st.long_compute += counts.long_compute;
    st.mid_compute += counts.mid_compute;
    st.lds_compute += counts.lds_compute;
    st.synth_local += counts.synth_local;
    Record e;
    e.kind = RecKind::End;
    out.write(e);
    return st;
}

}  // namespace dcutrace
