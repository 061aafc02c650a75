// All-bank refresh of one DRAM channel: a REF every tREFI, once the open banks
// are closed; the channels of a DRAM refresh in turn, not all at once. While a
// refresh is due it takes the channel (step); an idle channel's refreshes are
// applied when it next has work (catch_up), so it never wakes for them.
#pragma once

#include <cstdint>

#include "dram_command.h"
#include "dram_params.h"
#include "timing_checker.h"

namespace dcusim {

class DramRefresh {
public:
    DramRefresh(const DramTiming& t, uint32_t index, uint32_t channels)
        : refi_(t.REFI), next_(t.REFI ? t.REFI + Cycle(index) * t.REFI / (channels ? channels : 1) : ~Cycle(0)) {}
    bool due(Cycle now) const { return now >= next_; }
    Cycle next() const { return next_; }
    // The next command while a refresh is due: PRE of the open bank that may
    // close first, else REF once every bank may activate.
    DramChoice step(const DramTimingChecker& tc) const;
    void issued() { next_ += refi_; }  // the REF went
    // Refreshes that fell due by cycle `t` while the channel was idle, applied
    // at their due cycles; returns how many (`closed`: the banks they closed).
    uint64_t catch_up(Cycle t, DramTimingChecker& tc, uint32_t& closed);

private:
    uint32_t refi_;
    Cycle next_;
};

inline DramChoice DramRefresh::step(const DramTimingChecker& tc) const {
    DramChoice c;
    Cycle all_closed = tc.next_cmd();
    for (uint32_t i = 0; i < tc.banks(); ++i) {
        const DramTimingChecker::Bank& b = tc.bank(i);
        if (b.open) {
            const Cycle at = b.next_pre > tc.next_cmd() ? b.next_pre : tc.next_cmd();
            if (c.cmd == DramCmd::None || at < c.at) c = {DramCmd::Pre, at, i, 0};
        }
        if (b.next_act > all_closed) all_closed = b.next_act;
    }
    if (c.cmd == DramCmd::None) c = {DramCmd::Ref, all_closed > next_ ? all_closed : next_, 0, 0};
    return c;
}

inline uint64_t DramRefresh::catch_up(Cycle t, DramTimingChecker& tc, uint32_t& closed) {
    closed = 0;
    if (!refi_ || next_ > t) return 0;
    const Cycle n = (t - next_) / refi_ + 1;  // all at once: a long idle stretch may hold millions
    closed = tc.idle_refreshes(next_, n);
    next_ += n * refi_;
    return n;
}

}  // namespace dcusim
