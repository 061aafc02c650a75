// The JEDEC timing checker of one DRAM channel: the state of its banks (open
// row) and the earliest cycle each command may issue, per bank, per bank group
// and channel-wide (tRCD, tRP, tRAS, tRC, tCCD_S/L, tRRD_S/L, tFAW, tWR, tWTR,
// tRTP, tRFC, one command a cycle). The scheduler asks it when a command may go
// and tells it what went; it decides nothing.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "../common/clock.h"
#include "dram_command.h"
#include "dram_params.h"

namespace dcusim {

class DramTimingChecker {
public:
    static constexpr Cycle kNever = ~Cycle(0);
    struct Bank {
        bool open = false;
        uint64_t row = 0;
        uint32_t group = 0;  // bank group
        Cycle next_act = 0, next_pre = 0, next_rd = 0, next_wr = 0;
    };

    explicit DramTimingChecker(const DramParams& p);
    uint32_t banks() const { return uint32_t(banks_.size()); }
    const Bank& bank(uint32_t b) const { return banks_[b]; }
    // The bank's own bound on `cmd` (ACT, PRE, RD or WR).
    Cycle bank_at(uint32_t b, DramCmd cmd) const {
        const Bank& k = banks_[b];
        return cmd == DramCmd::Rd ? k.next_rd : cmd == DramCmd::Wr ? k.next_wr : cmd == DramCmd::Pre ? k.next_pre : k.next_act;
    }
    // The bank group's bound on `cmd` (0 where the group sets none: PRE).
    Cycle group_at(uint32_t group, DramCmd cmd) const { return group_at_[group][unsigned(cmd)]; }
    // The channel-wide part of each command's earliest cycle at `now`, indexed
    // by DramCmd (kNever for None and Ref, which nothing schedules this way).
    void channel_bounds(Cycle now, Cycle out[kDramCmds]) const;
    Cycle next_cmd() const { return next_cmd_; }

    // What issued at `now`. rd and wr return the cycle their data ends.
    void act(uint32_t b, uint64_t row, Cycle now);
    void pre(uint32_t b, Cycle now);
    Cycle rd(uint32_t b, Cycle now);
    Cycle wr(uint32_t b, Cycle now);
    void ref(Cycle now);
    // The `n` refreshes an idle channel had, applied afterwards: the first due
    // at `due` (PRE each open bank, then REF once every bank may activate), each
    // later one REFI after the one before, or when that ends. Returns the banks closed.
    uint32_t idle_refreshes(Cycle due, Cycle n);

private:
    const DramTiming& t_;
    std::vector<Bank> banks_;
    // Per bank group, the earliest cycle of each command kind (indexed by DramCmd).
    std::vector<std::array<Cycle, kDramCmds>> group_at_;
    Cycle next_cmd_ = 0, next_act_any_ = 0, next_rd_any_ = 0, next_wr_any_ = 0;
    Cycle faw_[4] = {};  // the last four ACTs, oldest at faw_i_
    unsigned faw_i_ = 0;
    bool faw_full_ = false;
};

inline void DramTimingChecker::channel_bounds(Cycle now, Cycle out[kDramCmds]) const {
    const Cycle base = std::max(now, next_cmd_);
    Cycle act = std::max(base, next_act_any_);
    if (faw_full_) act = std::max(act, faw_[faw_i_] + t_.FAW);  // the oldest of the last four ACTs
    out[unsigned(DramCmd::None)] = kNever, out[unsigned(DramCmd::Ref)] = kNever;
    out[unsigned(DramCmd::Act)] = act, out[unsigned(DramCmd::Pre)] = base;
    out[unsigned(DramCmd::Rd)] = std::max(base, next_rd_any_), out[unsigned(DramCmd::Wr)] = std::max(base, next_wr_any_);
}

inline void DramTimingChecker::act(uint32_t b, uint64_t row, Cycle now) {
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

inline void DramTimingChecker::pre(uint32_t b, Cycle now) {
    Bank& k = banks_[b];
    next_cmd_ = now + 1;
    k.open = false;
    k.next_act = std::max(k.next_act, now + t_.RP);
}

inline Cycle DramTimingChecker::rd(uint32_t b, Cycle now) {
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

inline Cycle DramTimingChecker::wr(uint32_t b, Cycle now) {
    Bank& k = banks_[b];
    next_cmd_ = now + 1;
    const Cycle end = now + t_.WL + t_.BURST;
    k.next_pre = std::max(k.next_pre, end + t_.WR);
    next_wr_any_ = now + t_.CCD_S;
    group_at_[k.group][unsigned(DramCmd::Wr)] = now + t_.CCD_L;
    next_rd_any_ = std::max(next_rd_any_, end + t_.WTR);
    return end;
}

inline void DramTimingChecker::ref(Cycle now) {
    next_cmd_ = now + 1;
    for (Bank& k : banks_) k.next_act = std::max(k.next_act, now + t_.RFC);
}

}  // namespace dcusim
