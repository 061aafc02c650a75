// Sampled simulation of a kernel with many workgroups (sample.mode = auto; docs/ARCHITECTURE.md,
// "Sampled simulation"). Each workgroup gets a signature from its trace, an instruction-mix vector
// in the spirit of SimPoint's basic-block vectors (Sherwood et al., ASPLOS 2002) and Photon's
// per-warp vectors (Liu et al., MICRO 2023); equal rounded vectors form a class. The workgroups run
// in detail until, after a warm-up of at least one occupancy round retired, the retirement rate
// (cycles per workgroup, each window timed by its retirements' mean cycle) is steady over
// consecutive windows: TBPoint's homogeneous region within a launch (Huang et al., IPDPS 2014),
// its mean known within a tolerance at 95 % confidence, as SMARTS sizes its samples (Wunderlich et
// al., ISCA 2003), and not drifting (the CUs begin in step, and the rate moves as they spread).
// Further workgroups of classes already seen are then read but not timed: each adds the steady rate
// to the kernel's cycles and the window's per-workgroup counter deltas to its sums. A class never
// seen ends the skipping and starts the measurement again. The workgroups resident when skipping
// starts drain in detail (the tail). With sample.warm (the default) each skipped workgroup is handed
// to the observer to warm the L2, and the observer may end a stretch when the L2's state changes
// (sim/sample_regime.h): measured again from there. Without it, the skipped workgroups touch no
// cache, so a rate is not taken while the L2 is filling up, unless it would still not be full at the
// kernel's end.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

#include "../../traces/replay/wave_trace.h"
#include "../../traces/replay/workgroup_mix.h"
#include "../common/clock.h"
#include "../common/stats.h"
#include "sample_measurement.h"
#include "sample_params.h"

namespace dcusim {

// The longest span of windows a rate and its sums are taken over (sample.steady_windows at most).
constexpr uint32_t kMaxSpanWindows = 16;

// TooSmall: fewer workgroups than sample.min_workgroups; TooShort: fewer than twice those timed at
// least (`needed`: the warm-up, the steady windows, and the round resident when skipping starts, which
// drains in detail), so fewer could be skipped than are timed: too little to gain for a projection.
enum class SampleStatus { Off, TooSmall, TooShort, NeverSteady, Projected };

struct SampleReport {
    SampleStatus status = SampleStatus::Off;
    uint64_t grid = 0;       // workgroups the launch declares
    uint64_t total = 0;      // workgroups read from the trace
    uint64_t simulated = 0;  // of them, timed in detail
    uint64_t classes = 0;    // distinct signatures seen
    uint64_t needed = 0;     // workgroups timed at least: the warm-up, the steady windows, a round draining
    uint64_t capacity = 0;   // workgroups the GPU holds at once (an occupancy round)
    double projected_cycles = 0;  // skipped workgroups x the steady rate of their stretch
    std::vector<SampleMeasurement> measurements;
};

// What a kernel's report says of its sampling (sample.*), declared in dispatch_counters.cpp.
struct SampleFigures {
    uint64_t projected = 0;  // 1: its cycles and sums are projected
    uint64_t workgroups_total = 0, workgroups_simulated = 0, cycles_simulated = 0;
};
const CounterTable<SampleFigures>& sample_counter_table();

// Told at the points whose counters the projection needs (the program snapshots its units' stats).
class SampleObserver {
public:
    virtual ~SampleObserver() = default;
    // A window boundary: snapshot the counters under `id`.
    virtual void sample_mark(uint64_t /*id*/) {}
    // Steady: the counters' deltas from mark `from` to mark `to` (at most kMaxSpanWindows windows
    // apart), over `workgroups` retirements, are the per-workgroup figures to project with.
    virtual void sample_steady(uint64_t /*from*/, uint64_t /*to*/, uint64_t /*workgroups*/) {}
    // Whether the state the rate depends on is stationary over marks `from` to `to` too, should
    // up to `remaining` more workgroups be skipped (the program's: the L2 must not be filling).
    virtual bool sample_stationary(uint64_t /*from*/, uint64_t /*to*/, uint64_t /*workgroups*/, uint64_t /*remaining*/) {
        return true;
    }
    // `n` workgroups were skipped since the last sample_steady.
    virtual void sample_skipped(uint64_t /*n*/) {}
    // A skipped workgroup's mix, of its waves as its source holds them (its counts that the trace decides are exact).
    virtual void sample_skipped_workgroup(const trace::WorkgroupMix& /*mix*/) {}
    // With sample.warm: a skipped workgroup, to leave its traces in the caches (untimed).
    virtual void sample_warm(const std::vector<trace::WaveTrace>& /*waves*/) {}
    // With sample.warm: whether the state the rate depends on has changed since the last
    // sample_steady (the L2 became full, or its dirty data reached its limit): skipping stops.
    virtual bool sample_changed() { return false; }
};

// The signature: waves, compute (plain, long, middle), barriers, waits, LDS-only compute, and per op and
// space the instructions, active lanes, bytes and lines of `line_bytes` touched (the coalescing); every
// feature rounded to 5 significant bits (classes of features within ~3 %: a grid clustering).
// Of a workgroup's waves as its source holds them (a trace's: at the capture's wave size, before
// regrouping: every workgroup of a kernel is signed alike, skipped or not), or of their mix.
void workgroup_signature(const trace::WorkgroupMix& m, std::vector<uint64_t>& out);
void workgroup_signature(const std::vector<trace::WaveTrace>& waves, uint32_t line_bytes, std::vector<uint64_t>& out);
inline std::vector<uint64_t> workgroup_signature(const std::vector<trace::WaveTrace>& waves, uint32_t line_bytes) {
    std::vector<uint64_t> v;
    workgroup_signature(waves, line_bytes, v);
    return v;
}
inline std::vector<uint64_t> workgroup_signature(const trace::WorkgroupTrace& wg, uint32_t line_bytes) {
    return workgroup_signature(wg.waves, line_bytes);
}
uint64_t round_significant(uint64_t x, unsigned bits);

class Sampler {
public:
    Sampler(const SampleParams& p, uint32_t line_bytes, SampleObserver* obs) : p_(p), line_bytes_(line_bytes), obs_(obs) {}
    // grid: the launch's workgroups; capacity: how many the GPU holds at once.
    void kernel_start(uint64_t grid, uint64_t capacity);
    // A workgroup read from the trace, by its waves: true when it is skipped; else it is timed,
    // under the number tag() gives, which retired() is told.
    bool skip(const std::vector<trace::WaveTrace>& waves);
    uint64_t tag() const { return next_tag_ - 1; }
    // The same, tagging the workgroup.
    bool skip(trace::WorkgroupTrace& wg) {
        if (skip(wg.waves)) return true;
        wg.tag = tag();
        return false;
    }
    // A workgroup timed in detail retired at `when` (retirements are told in time order).
    void retired(uint64_t tag, Cycle when);
    SampleReport kernel_end();

private:
    void restart();     // a new class: measure again from the next workgroup
    void end_stretch();  // skipping stops: tell the observer how many were skipped
    // Whether the windows from mark j to the last give the mean window within the tolerance, at
    // 95 % confidence (and the L2 allows).
    bool span_steady(size_t j) const;
    bool drifts(size_t j, size_t batch) const;

    SampleParams p_;
    uint32_t line_bytes_;
    SampleObserver* obs_;
    SampleReport rep_;
    bool active_ = false;
    uint64_t warm_ = 1, window_ = 1;  // retirements of the warm-up and of one window
    std::map<std::vector<uint64_t>, uint64_t> classes_;
    trace::WorkgroupMix mix_;          // the last workgroup's
    std::vector<uint64_t> signature_;  // the last workgroup's (a buffer kept: most are a class already seen)
    std::vector<uint64_t> previous_;   // the signature last looked up, its class known (empty at a kernel's start)
    uint64_t next_tag_ = 0, run_first_tag_ = 0, run_retired_ = 0;
    uint64_t retired_ = 0;   // timed workgroups retired this kernel
    uint64_t older_ = 0;     // of an earlier measurement, still in flight
    uint64_t warm_end_ = 1;  // this measurement's retirements at which its windows start
    // A window boundary (a retirement: the counters are taken there), and the mean cycle of the
    // window's retirements ending there (the warm-up's last window's at the first mark), which the
    // rate is taken from.
    struct Mark {
        uint64_t id;
        double centroid;
        double burstiness;  // of the window ending here (0 at the first mark)
    };
    std::vector<Mark> marks_;  // the current measurement's window boundaries
    // Count, sum and sum of squares of the gaps between the current window's retirements: its
    // burstiness, their coefficient of variation (reported, a sign of the CUs in step).
    struct Moments {
        double n = 0, sum = 0, squares = 0;
        void add(double x) { n += 1, sum += x, squares += x * x; }
        double sd() const { return n == 0 ? 0 : std::sqrt(std::max(0.0, squares / n - (sum / n) * (sum / n))); }
        double cv() const { return sum == 0 ? 0 : sd() / (sum / n); }
    } gaps_;
    Cycle last_retired_ = 0;
    // The current measurement's last window_ retirement cycles (a ring) and their sum.
    std::vector<Cycle> recent_;
    uint64_t recent_sum_ = 0;
    uint64_t next_mark_ = 0;
    bool steady_ = false;
    double rate_ = 0;            // cycles per workgroup of the current steady stretch
    uint64_t stretch_skipped_ = 0;
};

}  // namespace dcusim
