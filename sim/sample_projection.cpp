#include "sample_projection.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "../models/dispatch/sample_confidence.h"
#include "../models/dispatch/sampler.h"
#include "sample_regime.h"
#include "stats_catalog.h"

namespace dcusim {

namespace {
constexpr size_t kMarksKept = kMaxSpanWindows + 1;  // the boundaries of the longest span
}

bool SampleProjection::projected_key(const std::string& key) {
    return stat_def(key).kind == StatKind::Sum;
}

void SampleProjection::reset() {
    marks_.clear();
    per_workgroup_.clear();
    extra_.clear();
    counted_.clear();
}

void SampleProjection::mark(uint64_t id, Cycle at, StatMap counters, uint64_t cache_lines, uint64_t dirty) {
    marks_.push_back({id, at, std::move(counters), cache_lines, dirty});
    if (marks_.size() > kMarksKept) marks_.pop_front();
}

const SampleProjection::Mark& SampleProjection::find(uint64_t id) const {
    for (const Mark& m : marks_)
        if (m.id == id) return m;
    throw std::logic_error("sampling: a window without its mark");
}

namespace {
// A counter's change between two snapshots (a counter absent from one is 0 there).
double delta(const StatMap& a, const StatMap& b, const char* key) {
    auto i = a.find(key), j = b.find(key);
    return (j == b.end() ? 0.0 : j->second) - (i == a.end() ? 0.0 : i->second);
}

// The DRAM bytes read and written between two snapshots.
double dram_bytes(const StatMap& a, const StatMap& b) {
    return delta(a, b, "dram.read_bytes") + delta(a, b, "dram.write_bytes");
}

// Whether a count going from a to b over `workgroups` stays where it is for `remaining` more:
// not growing, full (at least `full`), or at its pace still short of its cap at the end.
bool settled(uint64_t a, uint64_t b, uint64_t workgroups, uint64_t remaining, uint64_t cap, double full) {
    if (b <= a || workgroups == 0) return true;
    if (double(b) >= full) return true;
    const double growth = double(b - a) / double(workgroups);
    return double(b) + growth * double(remaining) < double(cap);
}
}  // namespace

// The L2's traffic to DRAM (its misses and write-backs: what its state decides) over marks `from` to
// `to`: read and written bytes per cycle of each window, each mean known within `tolerance` as the
// sampler asks of the cycles (mean_known). Per cycle, as a window's bytes come with its length, which
// moves with where in a burst of retirements its boundary falls (strided<16>: 13 %); not bytes that
// are under `tolerance` of the span's traffic, which cannot move it by that much (a reduction's few
// writes, none in most windows). The write-backs settle later than the cycles: after the L2 fills,
// its victims' mix of dirty and clean lines changes for about one turnover of its lines.
bool SampleProjection::traffic_steady(uint64_t from, uint64_t to, double tolerance) const {
    const size_t n = size_t(to - from);
    if (n < 2) return true;
    const Mark &a = find(from), &b = find(to);
    const double total = dram_bytes(a.counters, b.counters);
    for (const char* key : {"dram.read_bytes", "dram.write_bytes"}) {
        if (delta(a.counters, b.counters, key) <= tolerance * total) continue;
        std::vector<double> per_cycle;
        for (uint64_t id = from; id < to; ++id) {
            const Mark &s = find(id), &e = find(id + 1);
            per_cycle.push_back(delta(s.counters, e.counters, key) / double(std::max<Cycle>(1, e.at - s.at)));
        }
        if (mean_known(per_cycle.data(), n, tolerance, min_pairs) == 0) return false;
    }
    return true;
}

bool SampleProjection::stationary(uint64_t from, uint64_t to, uint64_t workgroups, uint64_t remaining, uint64_t capacity,
                                  double tolerance, uint64_t dirty_limit, uint64_t dirty_slack) const {
    const Mark &a = find(from), &b = find(to);
    if (!traffic_steady(from, to, tolerance)) return false;
    // A set-associative L2 nears full only slowly: full within the tolerance.
    if (!settled(a.cache_lines, b.cache_lines, workgroups, remaining, capacity, (1 - tolerance) * double(capacity))) return false;
    if (dirty_limit == 0) return true;
    if (double(b.dirty) < (1 - tolerance) * double(a.dirty)) return false;
    // The dirty data grows straight to its limit, and each slice keeps within a line of it.
    return settled(a.dirty, b.dirty, workgroups, remaining, dirty_limit, double(dirty_limit) - double(dirty_slack));
}

bool SampleProjection::drain_small(uint64_t from, uint64_t to, double tolerance, double sector_bytes) const {
    const Mark &a = find(from), &b = find(to);
    if (b.dirty >= a.dirty) return true;
    return drain_within(double(a.dirty - b.dirty) * sector_bytes, dram_bytes(a.counters, b.counters), tolerance);
}

void SampleProjection::steady(uint64_t from, uint64_t to, uint64_t workgroups) {
    const StatMap &a = find(from).counters, &b = find(to).counters;
    if (workgroups == 0) throw std::logic_error("sampling: a steady window of no workgroups");
    per_workgroup_.clear();
    for (const auto& [key, v] : b) {
        if (!projected_key(key)) continue;
        auto old = a.find(key);
        per_workgroup_[key] = (v - (old == a.end() ? 0.0 : old->second)) / double(workgroups);
    }
}

void SampleProjection::skipped(uint64_t n) {
    for (const auto& [key, v] : per_workgroup_) extra_[key] += double(n) * v;
}

void SampleProjection::counted(const std::string& key, double v) { counted_[key] += v; }

void SampleProjection::apply(StatMap& m) const {
    // Counts stay whole numbers: a projected count is rounded to the nearest.
    for (const auto& [key, v] : extra_)
        if (!counted_.count(key)) m[key] = double(int64_t(m[key] + v + 0.5));
    for (const auto& [key, v] : counted_) m[key] += v;
}

}  // namespace dcusim
