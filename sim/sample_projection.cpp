#include "sample_projection.h"

#include <stdexcept>

#include "../models/dispatch/sampler.h"
#include "platform.h"

namespace dcusim {

namespace {
constexpr size_t kMarksKept = kMaxSpanWindows + 1;  // the boundaries of the longest span
}

bool SampleProjection::projected_key(const std::string& key) {
    return key != "cycles" && key.rfind("sample.", 0) != 0 && !is_per_kernel_only(key);
}

void SampleProjection::reset() {
    marks_.clear();
    per_workgroup_.clear();
    extra_.clear();
}

void SampleProjection::mark(uint64_t id, StatMap counters, uint64_t cache_lines) {
    marks_.push_back({id, std::move(counters), cache_lines});
    if (marks_.size() > kMarksKept) marks_.pop_front();
}

const SampleProjection::Mark& SampleProjection::find(uint64_t id) const {
    for (const Mark& m : marks_)
        if (m.id == id) return m;
    throw std::logic_error("sampling: a window without its mark");
}

bool SampleProjection::stationary(uint64_t from, uint64_t to, uint64_t workgroups, uint64_t remaining, uint64_t capacity,
                                  double tolerance) const {
    const Mark &a = find(from), &b = find(to);
    if (b.cache_lines <= a.cache_lines || workgroups == 0) return true;
    if (double(b.cache_lines) >= (1 - tolerance) * double(capacity)) return true;  // full, within the tolerance
    const double growth = double(b.cache_lines - a.cache_lines) / double(workgroups);
    return double(b.cache_lines) + growth * double(remaining) < double(capacity);
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

void SampleProjection::apply(StatMap& m) const {
    // Counts stay whole numbers: a projected count is rounded to the nearest.
    for (const auto& [key, v] : extra_) m[key] = double(int64_t(m[key] + v + 0.5));
}

}  // namespace dcusim
