#include "timeline.h"

namespace dcutrace {

using dcusim::trace::Record;
using dcusim::trace::RecKind;

void WarpTimeline::advance_to(int to) {
    if (!f_) return;
    if (to < 0) {
        flush_compute();
        return;
    }
    walk(path_between(*f_, last_, to), to);
}

void WarpTimeline::finish() {
    if (f_ && last_ >= 0) walk(path_to_exit(*f_, last_), -1);
    flush_compute();
}

void WarpTimeline::issued(int idx) {
    if (!f_ || idx < 0) return;  // a PC the disassembly lacks: keep the last known place
    last_ = idx;
    if (f_->instrs[idx].load) outstanding_ |= f_->instrs[idx].writes;
}

void WarpTimeline::walk(const SassPath& p, int to) {
    for (const auto& r : p.part)
        for (int i = r.first; i < r.last; ++i) step(i);
    if (to >= 0 && (f_->instrs[to].reads & outstanding_).any()) wait();
    flush_compute();
}

void WarpTimeline::step(int i) {
    const SassInstr& in = f_->instrs[i];
    if (in.synth_local && frame_) {
        if ((in.reads & outstanding_).any()) wait();  // a spill store of a register a load still fills
        write_local(in);
        return;
    }
    // A memory instruction or barrier on the path that this warp did not run: a guarded one
    // had no lane on (predicated off) and still issued (a shared one takes its slot of the SM's
    // shared-memory pipe: `compute N lds S`); an unguarded one means the path guessed wrong, and
    // was not run at all.
    if (in.anchor) {
        pending_ += in.guarded;
        pending_lds_ += in.guarded && in.shared;
        return;
    }
    if ((in.reads & outstanding_).any()) wait();
    ++pending_;
    pending_long_ += in.long_latency;
    pending_mid_ += in.mid_latency;
}

// A spill slot: every lane at the same offset of its own window (stride 0), as the Sanitizer reports
// the local accesses it does see.
void WarpTimeline::write_local(const SassInstr& in) {
    flush_compute();
    Record r;
    r.kind = RecKind::Mem;
    dcusim::trace::MemAccess& m = r.mem;
    const bool store = in.opcode.rfind("STL", 0) == 0;
    m.op = store ? dcusim::trace::Op::Store : dcusim::trace::Op::Load;
    m.space = dcusim::trace::Space::Local;
    m.bytes = in.local_bytes;
    m.pc = in.offset;
    m.mask = frame_->mask;
    m.mask_all = frame_->mask_all;
    m.mode = dcusim::trace::AddrMode::Affine;
    m.base = frame_->stack_base + in.stack_offset;
    m.stride = 0;
    out_.write(r);
    ++st_.synth_local;
    if (!store) outstanding_ |= in.writes;
}

void WarpTimeline::wait() {
    flush_compute();
    Record r;
    r.kind = RecKind::Wait;
    out_.write(r);
    ++st_.waits;
    outstanding_.reset();
}

void WarpTimeline::flush_compute() {
    if (pending_ == 0) return;
    Record r;
    r.kind = RecKind::Compute;
    r.count = pending_;
    r.long_count = pending_long_;
    r.mid_count = pending_mid_;
    r.lds_count = pending_lds_;
    out_.write(r);
    st_.compute += pending_;
    st_.long_compute += pending_long_;
    st_.mid_compute += pending_mid_;
    st_.lds_compute += pending_lds_;
    pending_ = pending_long_ = pending_mid_ = pending_lds_ = 0;
}

}  // namespace dcutrace
