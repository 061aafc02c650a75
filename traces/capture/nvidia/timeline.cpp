#include "timeline.h"

#include <algorithm>

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
    if (f_->instrs[idx].load) loaded(f_->instrs[idx]);
}

void WarpTimeline::loaded(const SassInstr& in) {
    // Past so many, the oldest's registers pass to the next (a register rule still waits for all) and
    // its scoreboard is forgotten: a keep count is taken from the youngest end.
    constexpr size_t kMaxInFlight = 256;
    if (loads_.size() == kMaxInFlight) {
        loads_[1].writes |= loads_[0].writes;
        loads_.erase(loads_.begin());
    }
    loads_.push_back({in.writes, f_->control ? in.write_barrier : uint8_t(7)});
}

void WarpTimeline::walk(const SassPath& p, int to) {
    for (const auto& r : p.part)
        for (int i = r.first; i < r.last; ++i) {
            step(i);
            for (uint64_t n = loops_ ? loops_->extra(i) : 0; n > 0; --n)
                for (int j = loops_->start(i); j <= i; ++j) step(j);
        }
    if (to >= 0) wait_for(f_->instrs[to]);
    flush_compute();
}

void WarpTimeline::step(int i) {
    const SassInstr& in = f_->instrs[i];
    if (in.synth_local && frame_) {
        wait_for(in);  // a spill store of a register a load still fills
        return write_local(in);
    }
    // A memory instruction or barrier on the path that this warp did not run: a guarded one
    // had no lane on (predicated off) and still issued, after its scoreboards (a shared one takes its
    // slot of the SM's shared-memory pipe: `compute N lds S`); an unguarded one means the path
    // guessed wrong, and was not run at all.
    if (in.anchor) {
        if (!in.guarded) return;
        if (f_->control) wait_for(in);
        ++pending_;
        pending_stall_ += in.stall;
        pending_lds_ += in.shared;
        return;
    }
    wait_for(in);
    ++pending_;
    pending_stall_ += in.stall;
    pending_long_ += in.long_latency;
    pending_mid_ += in.mid_latency;
}

// The index in loads_ of the youngest load the instruction waits for (-1: none). With control words:
// every load on a scoreboard its wait mask names (a DEPBAR: all of its scoreboard's but the n youngest);
// without: the loads whose registers it reads, and then all are waited for.
int WarpTimeline::youngest_needed(const SassInstr& in) const {
    if (!f_->control) {
        for (int k = int(loads_.size()) - 1; k >= 0; --k)
            if ((in.reads & loads_[k].writes).any()) return int(loads_.size()) - 1;
        return -1;
    }
    uint8_t left = in.depbar_sb >= 0 ? in.depbar_left : 0;
    for (int k = int(loads_.size()) - 1; k >= 0; --k) {
        const uint8_t b = loads_[k].barrier;
        if (b == 7) continue;
        if (in.depbar_sb == b && left-- > 0) continue;
        if (in.depbar_sb == b || (in.wait_mask >> b & 1)) return k;
    }
    return -1;
}

void WarpTimeline::wait_for(const SassInstr& in) {
    const int k = youngest_needed(in);
    if (k >= 0) wait(loads_.size() - 1 - size_t(k));
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
    if (!store) loaded(in);
}

// Waits for every load but the `keep` youngest.
void WarpTimeline::wait(size_t keep) {
    flush_compute();
    Record r;
    r.kind = RecKind::Wait;
    r.keep = keep;
    out_.write(r);
    ++st_.waits;
    st_.kept_waits += keep > 0;
    loads_.erase(loads_.begin(), loads_.end() - std::ptrdiff_t(keep));
}

void WarpTimeline::flush_compute() {
    if (pending_ == 0) return;
    Record r;
    r.kind = RecKind::Compute;
    r.count = pending_;
    r.long_count = pending_long_;
    r.mid_count = pending_mid_;
    r.lds_count = pending_lds_;
    if (f_->control) r.stall = std::max<uint64_t>(pending_stall_, 1);
    out_.write(r);
    st_.compute += pending_;
    st_.long_compute += pending_long_;
    st_.mid_compute += pending_mid_;
    st_.lds_compute += pending_lds_;
    pending_ = pending_long_ = pending_mid_ = pending_lds_ = pending_stall_ = 0;
}

}  // namespace dcutrace
