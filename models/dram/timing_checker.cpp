#include "timing_checker.h"

#include <algorithm>

namespace dcusim {

DramTimingChecker::DramTimingChecker(const DramParams& p)
    : t_(p.t), banks_(size_t(p.bank_groups) * p.banks_per_group), group_at_(p.bank_groups, std::array<Cycle, kDramCmds>{}) {
    for (uint32_t i = 0; i < banks_.size(); ++i) banks_[i].group = i / p.banks_per_group;
}

void DramTimingChecker::channel_bounds(Cycle now, Cycle out[kDramCmds]) const {
    const Cycle base = std::max(now, next_cmd_);
    Cycle act = std::max(base, next_act_any_);
    if (faw_full_) act = std::max(act, faw_[faw_i_] + t_.FAW);  // the oldest of the last four ACTs
    out[unsigned(DramCmd::None)] = kNever, out[unsigned(DramCmd::Ref)] = kNever;
    out[unsigned(DramCmd::Act)] = act, out[unsigned(DramCmd::Pre)] = base;
    out[unsigned(DramCmd::Rd)] = std::max(base, next_rd_any_), out[unsigned(DramCmd::Wr)] = std::max(base, next_wr_any_);
}

void DramTimingChecker::act(uint32_t b, uint64_t row, Cycle now) {
    Bank& k = banks_[b];
    next_cmd_ = now + 1;
    k.open = true;
    k.row = row;
    k.next_rd = now + t_.RCD;
    k.next_wr = now + t_.RCDWR;
    k.next_pre = std::max(k.next_pre, now + t_.RAS);
    k.next_act = now + t_.RC;
    next_act_any_ = now + t_.RRD_S;
    group_at_[k.group][unsigned(DramCmd::Act)] = now + t_.RRD_L;
    faw_[faw_i_] = now;
    faw_i_ = (faw_i_ + 1) % 4;
    faw_full_ = faw_full_ || faw_i_ == 0;  // the window binds once four ACTs exist
}

void DramTimingChecker::pre(uint32_t b, Cycle now) {
    Bank& k = banks_[b];
    next_cmd_ = now + 1;
    k.open = false;
    k.next_act = std::max(k.next_act, now + t_.RP);
}

Cycle DramTimingChecker::rd(uint32_t b, Cycle now) {
    Bank& k = banks_[b];
    next_cmd_ = now + 1;
    const Cycle end = now + t_.CL + t_.BURST;
    k.next_pre = std::max(k.next_pre, now + t_.RTP);
    next_rd_any_ = now + t_.CCD_S;
    group_at_[k.group][unsigned(DramCmd::Rd)] = now + t_.CCD_L;
    // Read to write: the bus turns around after the read data.
    const Cycle rtw = end + 2 > t_.WL ? end + 2 - t_.WL : now;
    next_wr_any_ = std::max(next_wr_any_, rtw);
    return end;
}

Cycle DramTimingChecker::wr(uint32_t b, Cycle now) {
    Bank& k = banks_[b];
    next_cmd_ = now + 1;
    const Cycle end = now + t_.WL + t_.BURST;
    k.next_pre = std::max(k.next_pre, end + t_.WR);
    next_wr_any_ = now + t_.CCD_S;
    group_at_[k.group][unsigned(DramCmd::Wr)] = now + t_.CCD_L;
    next_rd_any_ = std::max(next_rd_any_, end + t_.WTR);
    return end;
}

void DramTimingChecker::ref(Cycle now) {
    next_cmd_ = now + 1;
    for (Bank& k : banks_) k.next_act = std::max(k.next_act, now + t_.RFC);
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
