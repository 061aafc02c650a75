#include "sample_projection.h"

#include <stdexcept>

#include "platform.h"

namespace dcusim {

namespace {
constexpr size_t kMarksKept = 9;  // sample.steady_windows is at most 8: 9 boundaries
}

bool SampleProjection::projected_key(const std::string& key) {
    return key != "cycles" && key.rfind("sample.", 0) != 0 && !is_per_kernel_only(key);
}

void SampleProjection::reset() {
    marks_.clear();
    per_workgroup_.clear();
    extra_.clear();
}

void SampleProjection::mark(uint64_t id, StatMap counters) {
    marks_.emplace_back(id, std::move(counters));
    if (marks_.size() > kMarksKept) marks_.pop_front();
}

void SampleProjection::steady(uint64_t from, uint64_t to, uint64_t workgroups) {
    const StatMap *a = nullptr, *b = nullptr;
    for (const auto& [id, m] : marks_) {
        if (id == from) a = &m;
        if (id == to) b = &m;
    }
    if (!a || !b || workgroups == 0) throw std::logic_error("sampling: a steady window without its marks");
    per_workgroup_.clear();
    for (const auto& [key, v] : *b) {
        if (!projected_key(key)) continue;
        auto old = a->find(key);
        per_workgroup_[key] = (v - (old == a->end() ? 0.0 : old->second)) / double(workgroups);
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
