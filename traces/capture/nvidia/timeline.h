// The `compute N` and `wait` records of one warp, from the SASS path it ran
// between the anchors it issued (docs/CAPTURE.md, "compute N and wait, from
// the SASS"). Used by dcutrace, whose PCs are SASS offsets, and by dcucc's
// host runtime, which maps its record sites to the SASS of the uninstrumented
// build.
#pragma once

#include <cstdint>
#include <vector>

#include "loop_trips.h"
#include "sass.h"
#include "traces/format/record.h"
#include "traces/format/sink.h"

namespace dcutrace {

struct TimelineCounts {
    uint64_t waits = 0, kept_waits = 0, compute = 0, long_compute = 0, mid_compute = 0, lds_compute = 0, synth_local = 0;
};

// Where a warp's spill accesses that the Sanitizer did not report are written (SassInstr::synth_local):
// the stack pointer's offset in the local window and the lanes of the warp's last captured instruction.
struct LocalFrame {
    uint64_t stack_base = 0;
    uint64_t mask = 0;
    bool mask_all = false;
};

// Emits the compute and wait records for the instructions a warp runs on its
// path. With control words (SassFunction::control), an instruction waits for
// the loads on the scoreboards its wait mask names (`wait keep K`, K the loads
// issued after the youngest of them) and a compute record carries the stall
// counts (`stall C`); without, it waits for all when it reads a register an
// outstanding load writes.
class WarpTimeline {
public:
    // `f` may be null: then nothing is written.
    WarpTimeline(const SassFunction* f, dcusim::trace::RecordSink& out, TimelineCounts& counts)
        : f_(f), out_(out), st_(counts) {}

    // Runs from the previous anchor to instruction `to` (which then issues);
    // `to` < 0 (a PC the SASS lacks) only writes what is pending.
    void advance_to(int to);
    // After the warp's last anchor: the path to EXIT.
    void finish();
    // Anchor `idx` issued (< 0: unknown, the last known place is kept).
    void issued(int idx);
    // Instructions marked synth_local on the path are written as local accesses of this frame
    // (null, the default: they are not expected, and count as anchors do).
    void set_frame(const LocalFrame* frame) { frame_ = frame; }
    // Loops with nothing captured go round as often as a profile says (null, the default: once a crossing).
    void set_loops(LoopTrips* loops) { loops_ = loops; }

private:
    // A memory record of the warp that a wait can count (a load or atomic: not a store), oldest first.
    struct InFlight {
        RegSet writes;
        uint8_t barrier = 7;  // the scoreboard it set (7: none, or no control words)
    };
    void walk(const SassPath& p, int to);
    void step(int i);
    void wait_for(const SassInstr& in);
    int youngest_needed(const SassInstr& in) const;
    void wait(size_t keep);
    void loaded(const SassInstr& in);
    void flush_compute();
    void write_local(const SassInstr& in);

    const SassFunction* f_;
    dcusim::trace::RecordSink& out_;
    TimelineCounts& st_;
    const LocalFrame* frame_ = nullptr;
    LoopTrips* loops_ = nullptr;
    std::vector<InFlight> loads_;
    int last_ = -1;
    uint64_t pending_ = 0, pending_long_ = 0, pending_mid_ = 0;  // compute not yet written, how many of it long, middle
    uint64_t pending_stall_ = 0;  // the control words' stall counts over it
    uint64_t pending_lds_ = 0;  // of it, shared-memory instructions issued with no lane on
};

}  // namespace dcutrace
