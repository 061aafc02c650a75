#include "assemble.h"

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

// Emits the compute and wait records for the instructions a warp runs on `path`,
// given the registers its outstanding loads will write.
class WarpTimeline {
public:
    WarpTimeline(const SassFunction* f, dcusim::trace::RecordSink& out, AssembleStats& st) : f_(f), out_(out), st_(st) {}

    // Runs from the previous anchor to instruction `to` (which then issues).
    void advance_to(int to) {
        if (!f_) return;
        if (to < 0) {
            flush_compute();
            return;
        }
        walk(path_between(*f_, last_, to), to);
    }
    void finish() {
        if (f_ && last_ >= 0) walk(path_to_exit(*f_, last_), -1);
        flush_compute();
    }
    void issued(int idx) {
        if (!f_ || idx < 0) return;  // a PC the disassembly lacks: keep the last known place
        last_ = idx;
        if (f_->instrs[idx].load) outstanding_ |= f_->instrs[idx].writes;
    }

private:
    void walk(const SassPath& p, int to) {
        for (const auto& r : p.part)
            for (int i = r.first; i < r.last; ++i) step(i);
        if (to >= 0 && (f_->instrs[to].reads & outstanding_).any()) wait();
        flush_compute();
    }
    void step(int i) {
        const SassInstr& in = f_->instrs[i];
        // A memory instruction or barrier on the path that this warp did not run: a guarded one
        // had no lane on (predicated off) and still issued; an unguarded one means the path
        // guessed wrong, and was not run at all.
        if (in.anchor) {
            pending_ += in.guarded;
            return;
        }
        if ((in.reads & outstanding_).any()) wait();
        ++pending_;
        pending_long_ += in.long_latency;
        pending_mid_ += in.mid_latency;
    }
    void wait() {
        flush_compute();
        Record r;
        r.kind = RecKind::Wait;
        out_.write(r);
        ++st_.waits;
        outstanding_.reset();
    }
    void flush_compute() {
        if (pending_ == 0) return;
        Record r;
        r.kind = RecKind::Compute;
        r.count = pending_;
        r.long_count = pending_long_;
        r.mid_count = pending_mid_;
        out_.write(r);
        st_.compute += pending_;
        st_.long_compute += pending_long_;
        st_.mid_compute += pending_mid_;
        pending_ = pending_long_ = pending_mid_ = 0;
    }

    const SassFunction* f_;
    dcusim::trace::RecordSink& out_;
    AssembleStats& st_;
    RegSet outstanding_;
    int last_ = -1;
    uint64_t pending_ = 0, pending_long_ = 0, pending_mid_ = 0;  // compute not yet written, how many of it long, middle
};

}  // namespace

AssembleStats assemble_launch(LaunchCapture& launch, const SassFunction* sass, const AddressRanges& const_ranges,
                              dcusim::trace::RecordSink& out) {
    AssembleStats st;
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
        WarpTimeline tl(sass, out, st);
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
    Record e;
    e.kind = RecKind::End;
    out.write(e);
    return st;
}

}  // namespace dcutrace
