#include "sample_regime.h"

#include <algorithm>
#include <cmath>

namespace dcusim {

void SampleRegime::steady(const L2Look& now) {
    base_ = last_ = now;
    windows_ = since_change_ = 0;
}

double SampleRegime::recent() const { return (window_[0] + window_[1] + window_[2]) / 3; }

// The mean of the last 3 windows against that of the stretch's first 3, by more than 4 tolerances
// (a window alone varies by several percent: the victims' dirty lines come in bursts), and by more
// than the floor a window.
bool SampleRegime::traffic_moved(uint64_t workgroups) const {
    if (windows_ < 6) return false;
    const double now = recent(), diff = std::abs(now - base_traffic_);
    return diff > 4 * tolerance_ * std::max(now, base_traffic_) && diff * double(workgroups) > double(sector_bytes_);
}

bool SampleRegime::settled() const {
    const double mean = recent();
    for (double t : window_)
        if (std::abs(t - mean) > tolerance_ * mean) return false;
    const double drained = drained_[0] + drained_[1] + drained_[2];
    return drained <= 0 || drain_within(drained * double(sector_bytes_), bytes_[0] + bytes_[1] + bytes_[2], tolerance_);
}

bool SampleRegime::changed(const L2Look& now) {
    const uint64_t workgroups = now.workgroups - last_.workgroups;
    const uint64_t i = windows_++ % 3;
    bytes_[i] = double(now.traffic - last_.traffic);
    window_[i] = workgroups ? bytes_[i] / double(workgroups) : 0;
    drained_[i] = double(last_.dirty) - double(now.dirty);
    last_ = now;
    if (windows_ == 3) base_traffic_ = recent();
    const bool moved = now.full != base_.full || now.at_limit != base_.at_limit || traffic_moved(workgroups);
    if (!moved) {
        since_change_ = 0;
        return false;
    }
    if (++since_change_ >= max_wait_) return true;
    return since_change_ >= 2 && windows_ >= 3 && settled();
}

}  // namespace dcusim
