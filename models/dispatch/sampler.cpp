#include "sampler.h"

#include <algorithm>
#include <cmath>

#include "sample_confidence.h"

namespace dcusim {

uint64_t round_significant(uint64_t x, unsigned bits) {
    if (x < (uint64_t(1) << bits)) return x;
    const unsigned drop = unsigned(64 - __builtin_clzll(x)) - bits;
    const uint64_t half = uint64_t(1) << (drop - 1);
    return ((x + half) >> drop) << drop;  // to nearest; a carry only gains a bit
}

void workgroup_signature(const trace::WorkgroupMix& m, std::vector<uint64_t>& v) {
    constexpr size_t kHead = 7, kPerAccess = 4;
    uint64_t f[kHead + trace::WorkgroupMix::kOps * trace::WorkgroupMix::kSpaces * kPerAccess] = {
        m.waves, m.compute - m.long_count - m.mid_count - m.lds_count, m.long_count, m.mid_count, m.barriers, m.waits, m.lds_count};
    uint64_t* x = f + kHead;
    for (const auto& by_space : m.access)
        for (const trace::WorkgroupMix::Access& a : by_space) *x++ = a.instructions, *x++ = a.lanes, *x++ = a.bytes, *x++ = a.lines;
    for (uint64_t& y : f) y = round_significant(y, 5);
    v.assign(std::begin(f), std::end(f));
}

void workgroup_signature(const std::vector<trace::WaveTrace>& waves, uint32_t line_bytes, std::vector<uint64_t>& v) {
    trace::WorkgroupMix m;
    trace::workgroup_mix(waves, line_bytes, m);
    workgroup_signature(m, v);
}

void Sampler::kernel_start(uint64_t grid, uint64_t capacity) {
    rep_ = SampleReport{};
    rep_.grid = grid;
    window_ = std::max<uint64_t>(1, uint64_t(std::ceil(p_.window_rounds * double(capacity))));
    // At least a window: the first mark's centroid is the warm-up's last window's.
    warm_ = std::max<uint64_t>(window_, uint64_t(std::ceil(p_.warmup_rounds * double(capacity))));
    rep_.capacity = capacity;
    rep_.needed = warm_ + uint64_t(p_.windows) * window_ + capacity;
    rep_.status = !p_.on                     ? SampleStatus::Off
                  : grid < p_.min_workgroups ? SampleStatus::TooSmall
                  : grid < 2 * rep_.needed   ? SampleStatus::TooShort
                                             : SampleStatus::NeverSteady;
    active_ = rep_.status == SampleStatus::NeverSteady;
    classes_.clear();
    previous_.clear();
    next_tag_ = 0;
    retired_ = 0;
    stretch_skipped_ = 0;
    restart();
}

void Sampler::restart() {
    run_first_tag_ = next_tag_;
    run_retired_ = 0;
    older_ = next_tag_ - retired_;
    warm_end_ = warm_;
    marks_.clear();
    gaps_ = Moments{};
    recent_.assign(window_, 0);
    recent_sum_ = 0;
    steady_ = false;
}

void Sampler::end_stretch() {
    if (stretch_skipped_ == 0) return;
    obs_->sample_skipped(stretch_skipped_);
    if (!rep_.measurements.empty()) rep_.measurements.back().skipped += stretch_skipped_;
    rep_.projected_cycles += double(stretch_skipped_) * rate_;
    rep_.status = SampleStatus::Projected;
    stretch_skipped_ = 0;
}

bool Sampler::skip(const std::vector<trace::WaveTrace>& waves) {
    ++rep_.total;
    if (!active_) {
        ++rep_.simulated;
        ++next_tag_;
        return false;
    }
    trace::workgroup_mix(waves, line_bytes_, mix_);
    workgroup_signature(mix_, signature_);
    // Most workgroups sign as the one before: that class is known without looking it up.
    const bool again = signature_ == previous_;
    const bool fresh = !again && classes_.find(signature_) == classes_.end();
    if (fresh) classes_.emplace(signature_, classes_.size());
    if (!again) previous_ = signature_;
    // Warmed, the skipped work changes the L2; once a window's worth is skipped, and at each window
    // after, a changed L2 ends the stretch: the rate is measured again under the new state.
    const bool changed = steady_ && !fresh && p_.warm_l2 && stretch_skipped_ > 0 && stretch_skipped_ % window_ == 0 &&
                         obs_->sample_changed();
    if (steady_ && !fresh && !changed) {
        ++stretch_skipped_;
        obs_->sample_skipped_workgroup(mix_);
        if (p_.warm_l2) obs_->sample_warm(waves);
        return true;
    }
    if (fresh || changed) {
        end_stretch();
        restart();  // its rate is not yet known: from this workgroup on, measured again
    }
    ++next_tag_;
    ++rep_.simulated;
    return false;
}

// The windows' cycles from mark j to the last: at least sample.steady_windows of them, whose mean
// is known within sample.tolerance (mean_known: over the windows or their pairs). Windows of one
// round are noisy (DRAM refreshes, write-back bursts: +-10 % on a stream), but a stationary rate's
// mean needs only more of them; a rate that trends, or alternates widely even over pairs, does not
// pass, nor one that drifts. The L2 must not be filling over the span either.
bool Sampler::span_steady(size_t j) const {
    const Mark &first = marks_[j], &last = marks_.back();
    const size_t windows = marks_.size() - 1 - j;
    if (windows < p_.windows) return false;
    double w[kMaxSpanWindows];
    for (size_t i = 0; i < windows; ++i) w[i] = marks_[j + i + 1].centroid - marks_[j + i].centroid;
    const size_t batch = mean_known(w, windows, p_.tolerance, p_.windows);
    if (batch == 0 || drifts(j, batch)) return false;
    const uint64_t remaining = rep_.grid > rep_.total ? rep_.grid - rep_.total : 0;
    return obs_->sample_stationary(first.id, last.id, windows * window_, remaining);
}

// Whether the windows from mark j to the last drift: the mean of their later half differs from that of
// their earlier half (what is left in the middle in neither) by more than half the tolerance. Halves
// are of whole batches of `batch` windows: where the mean was known only in pairs, halves of an odd
// count of alternating windows would hold one more slow window than the other. A rate settling after
// the kernel's start, or after a restart mid-kernel, falls or rises over several windows, each step
// within the noise the confidence test allows: at the kernel's start every CU takes a full round of
// workgroups at once, and as their retirements spread out of step the rate moves (a reduction's windows
// fall by 8 % over twelve rounds, 2,374 to 2,205 cycles).
bool Sampler::drifts(size_t j, size_t batch) const {
    const size_t windows = marks_.size() - 1 - j, half = windows / batch / 2 * batch;
    const double early = (marks_[j + half].centroid - marks_[j].centroid) / double(half);
    const double late = (marks_.back().centroid - marks_[marks_.size() - 1 - half].centroid) / double(half);
    return std::abs(late - early) > p_.tolerance / 2 * (late + early) / 2;
}

void Sampler::retired(uint64_t tag, Cycle when) {
    if (!active_) return;
    ++retired_;
    // Workgroups of an earlier measurement retire among this one's: only this one's count.
    if (tag < run_first_tag_) {
        --older_;
        return;
    }
    if (steady_) return;
    ++run_retired_;
    // The windows start after the warm-up, and once the earlier measurement's workgroups have all
    // retired: their work (a slower class's, after a new class ended the skipping) would count in
    // this one's windows, and so in every workgroup it projects.
    if (run_retired_ == warm_end_ && older_ > 0) ++warm_end_;
    Cycle& oldest = recent_[run_retired_ % window_];
    recent_sum_ += when - oldest;
    oldest = when;
    if (run_retired_ < warm_end_) return;
    if (!marks_.empty()) gaps_.add(double(when - last_retired_));
    last_retired_ = when;
    if ((run_retired_ - warm_end_) % window_ != 0) return;
    marks_.push_back({next_mark_, double(recent_sum_) / double(window_), gaps_.cv()});
    gaps_ = Moments{};
    obs_->sample_mark(next_mark_++);
    if (marks_.size() <= p_.windows) return;
    // The longest span ending now (up to kMaxSpanWindows windows: less noise in the rate and the
    // sums) that is steady.
    const size_t last = marks_.size() - 1;
    size_t j = last > kMaxSpanWindows ? last - kMaxSpanWindows : 0;
    while (j + p_.windows <= last && !span_steady(j)) ++j;
    if (j + p_.windows > last) return;
    const Mark &first = marks_[j], &end = marks_.back();
    const uint64_t workgroups = (last - j) * window_;
    steady_ = true;
    rate_ = (end.centroid - first.centroid) / double(workgroups);
    SampleMeasurement m;
    for (size_t i = 1; i < marks_.size(); ++i) {
        m.windows.push_back(marks_[i].centroid - marks_[i - 1].centroid);
        m.burstiness.push_back(marks_[i].burstiness);
    }
    m.span_first = uint32_t(j), m.workgroups_per_window = window_, m.rate = rate_;
    rep_.measurements.push_back(std::move(m));
    obs_->sample_steady(first.id, end.id, workgroups);
}

SampleReport Sampler::kernel_end() {
    end_stretch();
    rep_.classes = classes_.size();
    return rep_;
}

}  // namespace dcusim
