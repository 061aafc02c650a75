#include "dram_channel.h"

#include <algorithm>

namespace dcusim {

DramChannel::DramChannel(sc_core::sc_module_name name, uint32_t index, const DramParams& p, const Clock& mclk,
                         DramBurstSink* sink)
    : sc_module(name), p_(p), mclk_(mclk), sink_(sink), timing_(p_), refresh_(p_.t, index, p_.channels),
      sched_(p_, timing_), cal_(mclk.calendar()), unit_(cal_.add([this] { run(); })) {}

// Refreshes that fell due while the channel was idle, up to cycle `t`: each
// happened at its due cycle, and the last may still be going on at `t`. The
// channel does not wake for them: they are applied when it next has work, or settles.
void DramChannel::catch_up(Cycle t) {
    uint32_t closed = 0;
    const uint64_t n = refresh_.catch_up(t, timing_, closed);
    if (!n) return;
    stats_.precharges += closed;
    stats_.refreshes += n;
    for (uint32_t i = 0; i < timing_.banks(); ++i) sched_.row_changed(i);
}

void DramChannel::settle() {
    if (sched_.empty()) catch_up(mclk_.now());
}

void DramChannel::enqueue(DramBurst b) {
    if (sched_.empty()) catch_up(b.arrival);
    // A burst that leaves its bank's candidate as it is leaves the command
    // planned for the cycle the channel sleeps until: the channel need not wake
    // before it. (Skipping the wake-up changes nothing in the channel; it only
    // changes the order in which SystemC runs the two clock domains' calendars
    // in a shared time step.)
    const bool keeps = sched_.enqueue(b);
    if (b.arrival > mclk_.now()) ahead_.push(b.arrival);
    if (keeps && plan_valid_) return;
    if (!keeps) plan_valid_ = false;
    cal_.wake(unit_, std::max(b.arrival, mclk_.now()));
}

DramChoice DramChannel::choose(Cycle now) const {
    if (refresh_.due(now)) return refresh_.step(timing_);
    Cycle any[kDramCmds];
    timing_.channel_bounds(now, any);
    const DramChoice best = sched_.choose(now, any);
    // A refresh that falls due before the chosen command comes first.
    if (best.cmd != DramCmd::None && best.at >= refresh_.next()) return refresh_.step(timing_);
    return best;
}

void DramChannel::issue(const DramChoice& c, Cycle now) {
    const uint32_t group = c.cmd == DramCmd::Ref ? 0 : timing_.bank(c.bank).group;
    switch (c.cmd) {
    case DramCmd::Ref:
        timing_.ref(now);
        sched_.all_changed();
        refresh_.issued();
        ++stats_.refreshes;
        return;
    case DramCmd::Pre:
        timing_.pre(c.bank, now);
        sched_.row_changed(c.bank);
        ++stats_.precharges;
        // The burst that needed another row pays a conflict (not during refresh).
        if (!refresh_.due(now) && sched_.has_burst(c.bank)) {
            DramBurst& q = sched_.burst(c);
            if (q.outcome == RowOutcome::Undecided) q.outcome = RowOutcome::Conflict;
        }
        return;
    case DramCmd::Act: {
        DramBurst& q = sched_.burst(c);
        timing_.act(c.bank, q.row, now);
        sched_.row_changed(c.bank);
        sched_.group_moved(group, DramCmd::Act);
        ++stats_.activates;
        if (q.outcome == RowOutcome::Undecided) q.outcome = RowOutcome::Miss;
        return;
    }
    default:
        serve(c, now);
    }
}

void DramChannel::serve(const DramChoice& c, Cycle now) {
    DramBurst& q = sched_.burst(c);
    if (q.outcome == RowOutcome::Undecided) q.outcome = RowOutcome::Hit;
    (q.outcome == RowOutcome::Hit ? stats_.row_hits : q.outcome == RowOutcome::Miss ? stats_.row_misses
                                                                                    : stats_.row_conflicts) += 1;
    stats_.data_cycles += p_.t.BURST;
    const bool read = c.cmd == DramCmd::Rd;
    const Cycle end = read ? timing_.rd(c.bank, now) : timing_.wr(c.bank, now);
    sched_.group_moved(timing_.bank(c.bank).group, c.cmd);
    ++(read ? stats_.reads : stats_.writes);
    if (q.count == 1) sink_->run_done(q, end);  // the run's last burst
    sched_.served(c);
}

void DramChannel::run() {
    const Cycle now = mclk_.now();
    for (bool first = true;; first = false) {
        DramChoice c = first && plan_valid_ && plan_.at == now ? plan_ : choose(now);
        plan_valid_ = false;
        Cycle wake = c.at;
        if (c.cmd != DramCmd::None && c.at <= now) {
            issue(c, now);
            continue;  // one command a cycle: the next choice waits a cycle
        }
        // The first burst still to arrive.
        while (!ahead_.empty() && ahead_.top() <= now) ahead_.pop();
        if (!ahead_.empty()) wake = std::min(wake, ahead_.top());
        // Nothing changes before c.at unless a burst comes: then c is the choice there.
        if (c.cmd == DramCmd::Rd || c.cmd == DramCmd::Wr) {
            const DramBurst& b = sched_.burst(c);
            if (b.count == 1) sink_->prefetch_run(b);  // its answer's record is cold: fetch it while we sleep
        }
        plan_ = c;
        plan_valid_ = c.cmd != DramCmd::None && (ahead_.empty() || ahead_.top() > c.at);
        if (!sched_.empty() || c.cmd == DramCmd::Pre || c.cmd == DramCmd::Ref) {
            if (wake != ~Cycle(0)) cal_.wake(unit_, wake);
        }
        return;
    }
}

}  // namespace dcusim
