// Sampled simulation with the L2 warmed (sample.warm = l2): when the state a rate was measured in has
// changed enough that skipping must stop and the rate be measured again. Looked at once a window of
// skipped workgroups. The state changes when the L2 becomes full, when its dirty data reaches its
// limit, or when the skipped workgroups' DRAM traffic per workgroup (as the warming counts it), over
// 3 windows, moves away from what it was in the stretch's first 3: their lines start to hit, or to
// evict dirty ones. Skipping stops once the traffic has settled again (the last 3 windows within the
// tolerance of their mean, and older dirty data draining by no more than a rate may be taken over):
// during a transient (the victims' mix of dirty and clean lines still changing, older dirty data
// draining) a measured rate would carry the transient into every workgroup it is multiplied by. The transient is skipped at the old rate, its traffic counted; after `max_wait`
// windows the rate is measured again regardless.
#pragma once

#include <cstdint>

namespace dcusim {

// Write-backs among reads cost the DRAM more than their share of its bytes (the bus turns round): on a
// 1 GiB read stream of 262,144 workgroups (H200 preset, the launch's 2.4 MB of dirty data), a span
// whose drain was 4.2 % of its DRAM bytes ran 11.4 % slower than the stream after it, 2.7 times the
// share. So older dirty data may drain by a third of the tolerance of the DRAM traffic beside it.
constexpr double kDrainCost = 3;
inline bool drain_within(double drained_bytes, double traffic_bytes, double tolerance) {
    return kDrainCost * drained_bytes <= tolerance * traffic_bytes;
}

// What the program sees of the L2 at a look.
struct L2Look {
    bool full = false;      // its lines, within the tolerance
    bool at_limit = false;  // its dirty data, within a line a slice
    uint64_t traffic = 0;     // the warming's DRAM bytes so far
    uint64_t workgroups = 0;  // workgroups warmed so far
    uint64_t dirty = 0;       // its dirty sectors
};

class SampleRegime {
public:
    // `sector_bytes`: a difference in traffic of at most this much a window is no change; a dirty
    // sector drained writes back this much.
    SampleRegime(double tolerance, uint64_t sector_bytes, uint64_t max_wait)
        : tolerance_(tolerance), sector_bytes_(sector_bytes), max_wait_(max_wait) {}
    // A rate was taken: the state it holds for.
    void steady(const L2Look& now);
    // A window of skipped workgroups later: whether to measure again.
    bool changed(const L2Look& now);

private:
    double recent() const;  // the mean of the last 3 windows
    bool traffic_moved(uint64_t workgroups) const;
    bool settled() const;

    double tolerance_;
    uint64_t sector_bytes_, max_wait_;
    L2Look base_, last_;
    double base_traffic_ = 0;  // DRAM bytes per workgroup in the stretch's first 3 windows
    double window_[3] = {};    // DRAM bytes per workgroup in the last 3 windows
    double bytes_[3] = {};     // DRAM bytes in each of them
    double drained_[3] = {};   // dirty sectors each drained (negative: grew)
    uint64_t windows_ = 0, since_change_ = 0;
};

}  // namespace dcusim
