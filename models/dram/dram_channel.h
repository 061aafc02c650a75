// One DRAM (pseudo-)channel and its controller: open-page policy, FR-FCFS
// scheduling (per bank, the oldest request that hits the open row among the
// bank's `queue_depth` oldest, else its oldest; across banks, the command that
// can issue earliest, column commands first on ties, then the oldest request),
// all-bank refresh, and the JEDEC timing set.
// run() computes the earliest legal time of the next command and asks the
// DRAM's wake-up calendar for that cycle; idle cycles are never simulated.
#pragma once

#include <systemc>

#include <array>
#include <queue>
#include <vector>

#include "../common/clock.h"
#include "../common/ring_queue.h"
#include "../common/stats.h"
#include "../common/wake_calendar.h"
#include "dram_params.h"

namespace dcusim {

enum class RowOutcome : uint8_t { Undecided, Hit, Miss, Conflict };

// A run of `count` bursts of one request to one row of one bank (a 128-byte
// line of 32-byte bursts is one entry of 4): queued, searched and answered
// as one, while each burst still takes its own column command, in order.
// The k-th burst left is burst `seq` + k in the FR-FCFS order. 32 bytes: the
// queues of a busy channel hold thousands.
struct DramBurst {
    DramBurst() : seq(0), count(1) {}
    uint64_t row = 0;
    Cycle arrival = 0;  // memory cycles
    uint64_t seq : 56;  // the first burst left
    uint64_t count : 8;
    uint32_t parent = 0;  // the front end's request
    uint16_t bank = 0;    // bank_group x banks_per_group + bank within the group
    bool write = false;
    RowOutcome outcome = RowOutcome::Undecided;
};

class DramBurstSink {
public:
    virtual ~DramBurstSink() = default;
    // The data transfer of the run's last burst ends at memory cycle `end`
    // (its bursts are served in order, so it ends last).
    virtual void run_done(const DramBurst& b, Cycle end) = 0;
    // The run's last burst is planned: its record may be fetched ahead (a hint; no effect on timing).
    virtual void prefetch_run(const DramBurst&) {}
};

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
    enum class Cmd : uint8_t { None, Act, Pre, Rd, Wr, Ref };
    struct Bank {
        bool open = false;
        uint32_t group = 0;  // bank group
        uint64_t row = 0;
        Cycle next_act = 0, next_pre = 0, next_rd = 0, next_wr = 0;
        // The queue's oldest burst, kept here so that a choice reads only this
        // array (kNever: the queue is empty).
        Cycle front_arrival = kNever;
        uint64_t front_seq = 0;
        // The row-hit search, kept between choices: the first `scanned` queue
        // entries miss the open row; `hit` is the first that hits (kNone: none
        // found yet), and the search cannot go on before `scan_wait` (the
        // arrival it stopped at). Time only moves forward, so a search resumes
        // where it stopped.
        size_t scanned = 0, hit = kNone;
        uint32_t scanned_bursts = 0;  // bursts in the first `scanned` entries (the window counts bursts)
        Cycle scan_wait = 0;
        uint64_t hit_seq = 0;
        bool hit_write = false;
        // Of the bank's candidate command (in cands_): the part of its earliest
        // cycle that only this bank's state sets, and whether it is a column command.
        Cycle cand_at = 0;
        bool cand_column = false;
    };
    // The banks' candidate commands, all a choice reads, kept apart from the
    // banks and field by field, so that a choice walks a few small arrays.
    // A bank's entry is valid until the bank or its queue changes (which sets
    // `until` to 0), or until cycle `until` (an arrival may change it).
    struct Cands {
        explicit Cands(size_t n) : until(n, 0), bound(n, 0), order(n, 0), cmd(n, Cmd::None) {}
        std::vector<Cycle> until;
        std::vector<Cycle> bound;     // the earliest cycle the bank and its bank group allow
        std::vector<uint64_t> order;  // ties go to the least: a row command has bit 63 set, then the burst's seq
        std::vector<Cmd> cmd;
    };
    static constexpr size_t kNone = ~size_t(0);
    static constexpr Cycle kNever = ~Cycle(0);
    struct Choice {
        Cmd cmd = Cmd::None;
        Cycle at = ~Cycle(0);
        uint32_t bank = 0;
        size_t pos = 0;  // index of the burst it serves in its bank's queue
    };

    void run();  // at the cycle asked of the calendar
    void catch_up(Cycle t);
    Choice choose(Cycle now) const;
    Choice refresh_step() const;
    void issue(const Choice& c, Cycle now);
    size_t row_hit(uint32_t bank, Cycle now) const;
    void forget_hits(uint32_t bank) const {
        Bank& b = banks_[bank];
        b.scanned = 0, b.scanned_bursts = 0, b.hit = kNone, b.scan_wait = 0, cands_.until[bank] = 0;
    }
    // Restarts the row-hit search at entry `i` (bursts before it counted again: rare).
    void rescan_from(uint32_t bank, size_t i) const;
    // A bank group's bound on `cmd` moved: its banks' candidates of that kind follow.
    void group_moved(uint32_t group, Cmd cmd);
    void candidate(uint32_t bank, Cycle now) const;
    void note_front(uint32_t bank);

    DramParams p_;
    const DramTiming& t_;
    const Clock& mclk_;
    DramBurstSink* sink_;
    DramChannelStats stats_;
    mutable std::vector<Bank> banks_;  // mutable: the row-hit search is a cache
    mutable Cands cands_;  // mutable: a cache
    std::vector<RingQueue<DramBurst>> queues_;  // per bank, by (arrival, seq)
    // Banks with queued bursts, one bit each: a choice visits only these (an
    // empty bank has no command to offer).
    std::vector<uint64_t> busy_;
    size_t queued_ = 0;
    // The command chosen for the cycle the channel sleeps until: still the
    // choice then unless a burst is queued or arrives before it.
    Choice plan_;
    bool plan_valid_ = false;
    // Arrivals still ahead (bursts sent before their cycle), earliest first.
    std::priority_queue<Cycle, std::vector<Cycle>, std::greater<Cycle>> ahead_;
    Cycle next_cmd_ = 0, next_act_any_ = 0, next_rd_any_ = 0, next_wr_any_ = 0;
    // Per bank group, the earliest cycle of each command kind (indexed by Cmd;
    // zero where the group sets no bound: PRE).
    std::vector<std::array<Cycle, 6>> group_at_;
    Cycle faw_[4] = {};  // the last four ACTs, oldest at faw_i_
    unsigned faw_i_ = 0;
    bool faw_full_ = false;
    Cycle next_ref_;
    WakeCalendar& cal_;  // the memory clock's
    uint32_t unit_;
};

}  // namespace dcusim
