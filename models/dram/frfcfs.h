// FR-FCFS scheduling of one DRAM channel's queued bursts: per bank, the oldest
// burst that hits the open row among the bank's `queue_depth` oldest bursts,
// else its oldest (ACT on a closed bank, PRE on another open row); across
// banks, the command that can issue earliest, column commands first on ties,
// then the oldest burst. Refresh is not its business (DramRefresh).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "../common/ring_queue.h"
#include "dram_burst.h"
#include "dram_command.h"
#include "timing_checker.h"

namespace dcusim {

class FrFcfs {
public:
    FrFcfs(const DramParams& p, const DramTimingChecker& tc);
    // Queues a burst (its arrival may be in the future). Returns whether the
    // bank's candidate stands, so that a choice made before still holds.
    bool enqueue(const DramBurst& b);
    bool empty() const { return queued_ == 0; }
    bool has_burst(uint32_t bank) const { return !queues_[bank].empty(); }
    // The best command at `now`, given the channel-wide bounds (DramTimingChecker::channel_bounds).
    DramChoice choose(Cycle now, const Cycle any[kDramCmds]) const;
    DramBurst& burst(const DramChoice& c) { return queues_[c.bank][c.pos]; }
    const DramBurst& burst(const DramChoice& c) const { return queues_[c.bank][c.pos]; }
    // What the checker was told, seen from the queues: a bank's row opened or
    // closed, every bank's timing moved (REF), a bank group's bound on `cmd` moved.
    void row_changed(uint32_t bank) {
        forget_hits(bank);
        cands_.until[bank] = 0;
    }
    void bank_changed(uint32_t bank) { cands_.until[bank] = 0; }
    void all_changed() {
        for (Cycle& u : cands_.until) u = 0;
    }
    void group_moved(uint32_t group, DramCmd cmd);
    // A column command served the chosen burst: the run's next burst takes its
    // place, or the run leaves its queue.
    void served(const DramChoice& c);

private:
    static constexpr size_t kNone = ~size_t(0);
    static constexpr Cycle kNever = ~Cycle(0);
    struct Bank {
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
        explicit Cands(size_t n) : until(n, 0), bound(n, 0), order(n, 0), cmd(n, DramCmd::None) {}
        std::vector<Cycle> until;
        std::vector<Cycle> bound;     // the earliest cycle the bank and its bank group allow
        std::vector<uint64_t> order;  // ties go to the least: a row command has bit 63 set, then the burst's seq
        std::vector<DramCmd> cmd;
    };

    size_t row_hit(uint32_t bank, Cycle now) const;
    void forget_hits(uint32_t bank) const {
        Bank& b = banks_[bank];
        b.scanned = 0, b.scanned_bursts = 0, b.hit = kNone, b.scan_wait = 0;
    }
    // Restarts the row-hit search at entry `i` (bursts before it counted again: rare).
    void rescan_from(uint32_t bank, size_t i) const;
    void candidate(uint32_t bank, Cycle now) const;
    void note_front(uint32_t bank);

    const DramTimingChecker& tc_;
    uint32_t queue_depth_, banks_per_group_;
    mutable std::vector<Bank> banks_;  // mutable: the row-hit search is a cache
    mutable Cands cands_;              // mutable: a cache
    std::vector<RingQueue<DramBurst>> queues_;  // per bank, by (arrival, seq)
    // Banks with queued bursts, one bit each: a choice visits only these (an
    // empty bank has no command to offer).
    std::vector<uint64_t> busy_;
    size_t queued_ = 0;
};

inline void FrFcfs::group_moved(uint32_t group, DramCmd cmd) {
    const uint32_t first = group * banks_per_group_;
    const Cycle g = tc_.group_at(group, cmd);
    for (uint32_t i = first; i < first + banks_per_group_; ++i)
        if (cands_.cmd[i] == cmd) cands_.bound[i] = std::max(banks_[i].cand_at, g);
}

}  // namespace dcusim
