// Sampled simulation, the program's half (the dispatcher's Sampler decides what is skipped): the
// sums of a kernel's skipped workgroups, from snapshots of the units' counters at the sampler's
// window boundaries. Each skipped workgroup adds the steady windows' per-workgroup deltas.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>

#include "../models/common/clock.h"
#include "../models/common/stats.h"

namespace dcusim {

class SampleProjection {
public:
    size_t min_pairs = 3;  // sample.steady_windows: the fewest pairs of windows a mean may be known over
    void reset();
    // cache_lines: the lines the L2 holds at the mark; dirty: its dirty sectors (with a dirty limit).
    void mark(uint64_t id, Cycle at, StatMap counters, uint64_t cache_lines, uint64_t dirty = 0);
    // False while the L2 fills between the marks and, at that pace, would be full (`capacity`
    // lines) before `remaining` more workgroups are done; true once it holds at least
    // (1 - `tolerance`) x `capacity` lines: then at most that fraction of the lines it takes in
    // find a free way, the rest a victim, as they will on (a set-associative cache nears full
    // only slowly: the last free ways of its sets fill long after most sets are full).
    // Its traffic to DRAM must be steady too (traffic_steady). The same of its dirty sectors against
    // `dirty_limit` (0: none), which, once reached (within
    // `dirty_slack`: each slice keeps within a line of its share), has the L2 write back as much as
    // is written; nor may they shrink by more than `tolerance` (older dirty data leaving: the data
    // dirty at the launch, written back once).
    bool stationary(uint64_t from, uint64_t to, uint64_t workgroups, uint64_t remaining, uint64_t capacity,
                    double tolerance, uint64_t dirty_limit = 0, uint64_t dirty_slack = 0) const;
    // With sample.warm, what stationary() asks instead of the L2's lines: the skipped workgroups fill the
    // L2 as they would have, and skipping stops when it becomes full or its dirty data reaches its limit,
    // so a filling L2 is no reason to wait, and their DRAM traffic is counted, not projected. The dirty
    // data must not drain by more than a third of `tolerance` of the span's DRAM traffic (older data
    // written back once, which costs about three times its bytes' share: the rate would carry that
    // write-back into every workgroup it is multiplied by).
    bool drain_small(uint64_t from, uint64_t to, double tolerance, double sector_bytes) const;
    // Whether the bytes read from and written to DRAM per cycle of each window from mark `from` to `to`
    // have their means known within `tolerance` (mean_known, as the cycles'), where they are at least
    // that share of the span's DRAM bytes.
    bool traffic_steady(uint64_t from, uint64_t to, double tolerance) const;
    // Per-workgroup deltas from mark `from` to mark `to` over `workgroups` retirements.
    void steady(uint64_t from, uint64_t to, uint64_t workgroups);
    void skipped(uint64_t n);
    // A sum the skipped workgroups' warming counted itself (sample.warm): `key` is no longer projected
    // from the windows; `v` is added instead.
    void counted(const std::string& key, double v);
    // Adds the skipped workgroups' sums to a kernel's counters (those that are sums: not cycles,
    // occupancy, rates, averages or the sample.* figures).
    void apply(StatMap& m) const;
    static bool projected_key(const std::string& key);


private:
    struct Mark {
        uint64_t id;
        Cycle at;
        StatMap counters;
        uint64_t cache_lines;
        uint64_t dirty;
    };
    const Mark& find(uint64_t id) const;
    std::deque<Mark> marks_;  // the latest, enough for sample.steady_windows
    StatMap per_workgroup_, extra_;
    std::map<std::string, double> counted_;
};

}  // namespace dcusim
