#include "timing_checker.h"

#include <algorithm>

namespace dcusim {

DramTimingChecker::DramTimingChecker(const DramParams& p)
    : t_(p.t), banks_(size_t(p.bank_groups) * p.banks_per_group), group_at_(p.bank_groups, std::array<Cycle, kDramCmds>{}) {
    for (uint32_t i = 0; i < banks_.size(); ++i) banks_[i].group = i / p.banks_per_group;
}

uint32_t DramTimingChecker::idle_refreshes(Cycle due, Cycle n) {
    Cycle ref_at = std::max(due, next_cmd_);
    uint32_t closed = 0;
    for (Bank& k : banks_) {
        if (k.open) {
            k.next_act = std::max(k.next_act, std::max({due, next_cmd_, k.next_pre}) + t_.RP);
            ++closed;
        }
        ref_at = std::max(ref_at, k.next_act);
    }
    // The later ones find the banks closed: each at its due cycle, or when the one before ends.
    if (n > 1) ref_at = std::max(due + (n - 1) * t_.REFI, ref_at + t_.RFC);
    for (Bank& k : banks_) {
        k.open = false;
        k.next_act = std::max(k.next_act, ref_at + t_.RFC);
    }
    next_cmd_ = std::max(next_cmd_, ref_at + 1);
    return closed;
}

}  // namespace dcusim
