// One DRAM (pseudo-)channel and its controller, open-page, in three parts as
// DRAMSys splits one: the scheduler (FR-FCFS, frfcfs.h) picks the next command
// among the queued bursts, the timing checker (timing_checker.h) says when each
// command may issue, and the refresh manager (refresh.h) takes the channel
// when a refresh is due. run() issues what is due and asks the DRAM's wake-up
// calendar for the cycle of the next command; idle cycles are never simulated.
#pragma once

#include <systemc>

#include <queue>
#include <vector>

#include "../common/clock.h"
#include "../common/stats.h"
#include "../common/wake_calendar.h"
#include "dram_burst.h"
#include "dram_params.h"
#include "frfcfs.h"
#include "refresh.h"
#include "timing_checker.h"

namespace dcusim {

struct DramChannelStats {
    uint64_t reads = 0, writes = 0, row_hits = 0, row_misses = 0, row_conflicts = 0;
    uint64_t activates = 0, precharges = 0, refreshes = 0, data_cycles = 0;
    void add_to(StatMap& m) const;
};

class DramChannel : public sc_core::sc_module {
public:
    DramChannel(sc_core::sc_module_name name, uint32_t index, const DramParams& p, const Clock& mclk, DramBurstSink* sink);
    void enqueue(DramBurst b);  // b.arrival may be in the future
    // Counts the refreshes an idle channel has had by now (none are lost
    // otherwise, but they would count in the interval of its next access).
    void settle();
    const DramChannelStats& stats() const { return stats_; }
    void reset_stats() { stats_ = {}; }

private:
    void run();  // at the cycle asked of the calendar
    void catch_up(Cycle t);
    DramChoice choose(Cycle now) const;
    void issue(const DramChoice& c, Cycle now);
    void serve(const DramChoice& c, Cycle now);  // a column command

    DramParams p_;
    const Clock& mclk_;
    DramBurstSink* sink_;
    DramChannelStats stats_;
    DramTimingChecker timing_;
    DramRefresh refresh_;
    FrFcfs sched_;
    // The command chosen for the cycle the channel sleeps until: still the
    // choice then unless a burst is queued or arrives before it.
    DramChoice plan_;
    bool plan_valid_ = false;
    // Arrivals still ahead (bursts sent before their cycle), earliest first.
    std::priority_queue<Cycle, std::vector<Cycle>, std::greater<Cycle>> ahead_;
    WakeCalendar& cal_;  // the memory clock's
    uint32_t unit_;
};

}  // namespace dcusim
