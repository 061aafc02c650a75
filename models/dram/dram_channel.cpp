#include "dram_channel.h"

#include <algorithm>

namespace dcusim {

void DramChannelStats::add_to(StatMap& m) const {
    add_stat(m, "dram.reads", reads);
    add_stat(m, "dram.writes", writes);
    add_stat(m, "dram.row_hits", row_hits);
    add_stat(m, "dram.row_misses", row_misses);
    add_stat(m, "dram.row_conflicts", row_conflicts);
    add_stat(m, "dram.activates", activates);
    add_stat(m, "dram.precharges", precharges);
    add_stat(m, "dram.refreshes", refreshes);
    add_stat(m, "dram.data_cycles", data_cycles);
}

DramChannel::DramChannel(sc_core::sc_module_name name, uint32_t index, const DramParams& p, const Clock& mclk,
                         DramBurstSink* sink)
    : sc_module(name), p_(p), t_(p_.t), mclk_(mclk), sink_(sink), banks_(size_t(p.bank_groups) * p.banks_per_group),
      cands_(banks_.size()),
      queues_(banks_.size()), busy_((banks_.size() + 63) / 64, 0), group_at_(p.bank_groups, std::array<Cycle, 6>{}),
      // Channels refresh in turn, not all at once.
      next_ref_(p.t.REFI ? p.t.REFI + Cycle(index) * p.t.REFI / std::max(1u, p.channels) : ~Cycle(0)),
      cal_(mclk.calendar()), unit_(cal_.add([this] { run(); })) {
    for (uint32_t i = 0; i < banks_.size(); ++i) banks_[i].group = i / p.banks_per_group;
}

// Refreshes that fell due while the channel was idle, up to cycle `t`. An idle
// controller refreshes on time: each happened at its due cycle (after closing
// the open banks), and the last may still be going on at `t`, so no row opens
// before it ends. The channel does not wake for them: they are applied when it
// next has work, or settles.
void DramChannel::catch_up(Cycle t) {
    if (!t_.REFI || next_ref_ > t) return;
    const Cycle n = (t - next_ref_) / t_.REFI + 1;  // all at once: a long idle stretch may hold millions
    // The first, as refresh_step issues it: PRE each open bank, then REF once every bank may activate.
    Cycle ref_at = std::max(next_ref_, next_cmd_);
    for (uint32_t i = 0; i < banks_.size(); ++i) {
        Bank& b = banks_[i];
        if (b.open) {
            b.next_act = std::max(b.next_act, std::max({next_ref_, next_cmd_, b.next_pre}) + t_.RP);
            ++stats_.precharges;
        }
        ref_at = std::max(ref_at, b.next_act);
    }
    // The later ones find the banks closed: each at its due cycle, or when the one before ends.
    if (n > 1) ref_at = std::max(next_ref_ + (n - 1) * t_.REFI, ref_at + t_.RFC);
    for (uint32_t i = 0; i < banks_.size(); ++i) {
        banks_[i].open = false, forget_hits(i);
        banks_[i].next_act = std::max(banks_[i].next_act, ref_at + t_.RFC);
    }
    next_cmd_ = std::max(next_cmd_, ref_at + 1);
    next_ref_ += n * t_.REFI;
    stats_.refreshes += n;
}

void DramChannel::settle() {
    if (queued_ == 0) catch_up(mclk_.now());
}

void DramChannel::enqueue(DramBurst b) {
    if (queued_ == 0) catch_up(b.arrival);
    auto later = [](const DramBurst& x, const DramBurst& y) { return x.arrival != y.arrival ? x.arrival < y.arrival : x.seq < y.seq; };
    const uint32_t bi = b.bank;
    auto& q = queues_[bi];
    Bank& bk = banks_[bi];
    // A burst queued behind others, in order, leaves its bank's candidate as it
    // is unless that is a PRE (the burst may hit the open row): a row hit found
    // earlier, an ACT for the oldest burst, or waiting for the oldest to arrive
    // all stay, and so does the command planned for the cycle the channel
    // sleeps until: the channel need not wake before it. (Skipping the wake-up
    // changes nothing in the channel; it only changes the order in which
    // SystemC runs the two clock domains' calendars in a shared time step.)
    const bool in_order = q.empty() || !later(b, q.back());
    const bool keeps = !q.empty() && in_order && cands_.until[bi] != 0 && cands_.cmd[bi] != Cmd::Pre;
    if (in_order) {
        q.push_back(b);  // the usual case: in order
        if (q.size() == 1) note_front(bi);
        bk.scan_wait = 0;  // the search may go on into it
    } else {
        // After the last entry not later than b (binary search).
        size_t lo = 0, hi = q.size();
        while (lo < hi) {
            const size_t mid = (lo + hi) / 2;
            if (later(b, q[mid])) hi = mid;
            else lo = mid + 1;
        }
        const size_t p = lo;
        q.insert(p, b);
        // Entries from p on moved: the search redoes them.
        if (bk.hit != kNone && bk.hit >= p) bk.hit = kNone;
        if (bk.hit == kNone && p < bk.scanned) rescan_from(bi, p);
        if (bk.hit == kNone) bk.scan_wait = 0;
        if (p == 0) note_front(bi);
    }
    ++queued_;
    busy_[bi / 64] |= uint64_t(1) << (bi % 64);
    if (b.arrival > mclk_.now()) ahead_.push(b.arrival);
    if (keeps && plan_valid_) return;
    if (!keeps) {
        cands_.until[bi] = 0;
        plan_valid_ = false;
    }
    cal_.wake(unit_, std::max(b.arrival, mclk_.now()));
}

// While a refresh is due: close the open banks, then refresh.
DramChannel::Choice DramChannel::refresh_step() const {
    Choice c;
    Cycle all_closed = next_cmd_;
    for (uint32_t i = 0; i < banks_.size(); ++i) {
        const Bank& b = banks_[i];
        if (b.open) {
            Cycle at = std::max(next_cmd_, b.next_pre);
            if (c.cmd == Cmd::None || at < c.at) c = {Cmd::Pre, at, i, 0};
        }
        all_closed = std::max(all_closed, b.next_act);
    }
    if (c.cmd == Cmd::None) c = {Cmd::Ref, std::max(all_closed, next_ref_), 0, 0};
    return c;
}

void DramChannel::rescan_from(uint32_t bank, size_t i) const {
    Bank& b = banks_[bank];
    const auto& q = queues_[bank];
    uint32_t n = 0;
    for (size_t k = 0; k < i; ++k) n += q[k].count;
    b.scanned = i, b.scanned_bursts = n;
}

// The entry of the oldest arrived burst to the open row among the bank's
// `queue_depth` oldest bursts (kNone: none), resuming the search kept in the bank.
size_t DramChannel::row_hit(uint32_t bank, Cycle now) const {
    Bank& b = banks_[bank];
    if (b.hit != kNone || now < b.scan_wait) return b.hit;
    const auto& q = queues_[bank];
    size_t i = b.scanned;
    uint32_t n = b.scanned_bursts;  // bursts ahead of entry i
    // Entry i is in the window while its first burst is.
    auto in_window = [&] { return i < q.size() && n < p_.queue_depth; };
    while (in_window() && q[i].arrival <= now && q[i].row != b.row) n += q[i].count, ++i;
    b.scanned = i, b.scanned_bursts = n;
    b.scan_wait = in_window() && q[i].arrival > now ? q[i].arrival : kNever;
    if (in_window() && q[i].arrival <= now) {
        b.hit = i;
        b.hit_seq = q[i].seq;
        b.hit_write = q[i].write;
    }
    return b.hit;
}

void DramChannel::note_front(uint32_t bank) {
    const auto& q = queues_[bank];
    Bank& b = banks_[bank];
    b.front_arrival = q.empty() ? kNever : q.front().arrival;
    if (!q.empty()) b.front_seq = q.front().seq;
}

// The bank's next command: a column command for the oldest row hit among its
// oldest few, else ACT (closed) or PRE (another row open) for its oldest burst.
void DramChannel::candidate(uint32_t bank, Cycle now) const {
    Bank& b = banks_[bank];
    Cands& c = cands_;
    c.until[bank] = kNever;
    if (b.front_arrival > now) {
        c.cmd[bank] = Cmd::None;
        c.until[bank] = b.front_arrival;
        return;
    }
    Cmd cmd;
    if (b.open && row_hit(bank, now) != kNone) {
        b.cand_column = true;
        c.order[bank] = b.hit_seq;
        cmd = b.hit_write ? Cmd::Wr : Cmd::Rd;
        b.cand_at = b.hit_write ? b.next_wr : b.next_rd;
    } else {
        b.cand_column = false;
        c.order[bank] = uint64_t(1) << 63 | b.front_seq;
        cmd = b.open ? Cmd::Pre : Cmd::Act;
        b.cand_at = b.open ? b.next_pre : b.next_act;
        if (b.open) c.until[bank] = b.scan_wait;  // a row hit may still arrive
    }
    c.cmd[bank] = cmd;
    c.bound[bank] = std::max(b.cand_at, group_at_[b.group][unsigned(cmd)]);
}

void DramChannel::group_moved(uint32_t group, Cmd cmd) {
    const uint32_t first = group * p_.banks_per_group;
    const Cycle g = group_at_[group][unsigned(cmd)];
    for (uint32_t i = first; i < first + p_.banks_per_group; ++i)
        if (cands_.cmd[i] == cmd) cands_.bound[i] = std::max(banks_[i].cand_at, g);
}

DramChannel::Choice DramChannel::choose(Cycle now) const {
    if (now >= next_ref_) return refresh_step();
    // The channel-wide part of each command's earliest cycle, computed once.
    const Cycle rd_any = std::max({now, next_cmd_, next_rd_any_}), wr_any = std::max({now, next_cmd_, next_wr_any_});
    Cycle act_any = std::max({now, next_cmd_, next_act_any_});
    if (faw_full_) act_any = std::max(act_any, faw_[faw_i_] + t_.FAW);  // the oldest of the last four ACTs
    const Cycle pre_any = std::max(now, next_cmd_);
    Cycle any[6];  // by Cmd; a bank without a command (None) never wins
    any[unsigned(Cmd::None)] = kNever, any[unsigned(Cmd::Ref)] = kNever;
    any[unsigned(Cmd::Act)] = act_any, any[unsigned(Cmd::Pre)] = pre_any;
    any[unsigned(Cmd::Rd)] = rd_any, any[unsigned(Cmd::Wr)] = wr_any;
    // Earliest cycle first, then column commands before row commands, then the
    // oldest burst. Branch-free: which bank wins is data, not control flow.
    Cycle best_at = kNever;
    uint64_t best_order = ~uint64_t(0);
    uint32_t best_bank = 0;
    const Cycle* until = cands_.until.data();
    const Cycle* bound = cands_.bound.data();
    const uint64_t* order = cands_.order.data();
    const Cmd* cmd = cands_.cmd.data();
    for (size_t w = 0; w < busy_.size(); ++w)
        for (uint64_t bits = busy_[w]; bits; bits &= bits - 1) {  // busy banks, lowest index first
            const uint32_t bi = uint32_t(w * 64 + unsigned(__builtin_ctzll(bits)));
            if (now >= until[bi]) candidate(bi, now);
            const Cycle at = std::max(any[unsigned(cmd[bi])], bound[bi]);
            const uint64_t ord = order[bi];
            const bool better = at < best_at || (at == best_at && ord < best_order);
            best_at = better ? at : best_at;
            best_order = better ? ord : best_order;
            best_bank = better ? bi : best_bank;
        }
    Choice best;
    if (best_at != kNever) {
        const Bank& b = banks_[best_bank];
        best = {cmd[best_bank], best_at, best_bank, b.cand_column ? b.hit : 0};
    }
    // A refresh that falls due before the chosen command comes first.
    if (best.cmd != Cmd::None && best.at >= next_ref_) return refresh_step();
    return best;
}

void DramChannel::issue(const Choice& c, Cycle now) {
    next_cmd_ = now + 1;
    if (c.cmd == Cmd::Ref) {
        for (uint32_t i = 0; i < banks_.size(); ++i) {
            banks_[i].next_act = std::max(banks_[i].next_act, now + t_.RFC);
            cands_.until[i] = 0;
        }
        next_ref_ += t_.REFI;
        ++stats_.refreshes;
        return;
    }
    Bank& b = banks_[c.bank];
    cands_.until[c.bank] = 0;  // its timing, row or queue changes
    const uint32_t bg = b.group;
    if (c.cmd == Cmd::Pre) {
        b.open = false;
        forget_hits(c.bank);
        b.next_act = std::max(b.next_act, now + t_.RP);
        ++stats_.precharges;
        // The burst that needed another row pays a conflict (not during refresh).
        auto& q = queues_[c.bank];
        if (now < next_ref_ && !q.empty() && q[c.pos].outcome == RowOutcome::Undecided)
            q[c.pos].outcome = RowOutcome::Conflict;
        return;
    }
    auto& bq = queues_[c.bank];
    DramBurst& q = bq[c.pos];
    if (c.cmd == Cmd::Act) {
        b.open = true;
        b.row = q.row;
        forget_hits(c.bank);
        b.next_rd = now + t_.RCD;
        b.next_wr = now + t_.RCDWR;
        b.next_pre = std::max(b.next_pre, now + t_.RAS);
        b.next_act = now + t_.RC;
        next_act_any_ = now + t_.RRD_S;
        group_at_[bg][unsigned(Cmd::Act)] = now + t_.RRD_L;
        group_moved(bg, Cmd::Act);
        faw_[faw_i_] = now;
        faw_i_ = (faw_i_ + 1) % 4;
        faw_full_ = faw_full_ || faw_i_ == 0;  // the window binds once four ACTs exist
        ++stats_.activates;
        if (q.outcome == RowOutcome::Undecided) q.outcome = RowOutcome::Miss;
        return;
    }
    // Column command: the burst is served.
    if (q.outcome == RowOutcome::Undecided) q.outcome = RowOutcome::Hit;
    (q.outcome == RowOutcome::Hit ? stats_.row_hits : q.outcome == RowOutcome::Miss ? stats_.row_misses
                                                                                    : stats_.row_conflicts) += 1;
    stats_.data_cycles += t_.BURST;
    Cycle end;
    if (c.cmd == Cmd::Rd) {
        end = now + t_.CL + t_.BURST;
        b.next_pre = std::max(b.next_pre, now + t_.RTP);
        next_rd_any_ = now + t_.CCD_S;
        group_at_[bg][unsigned(Cmd::Rd)] = now + t_.CCD_L;
        group_moved(bg, Cmd::Rd);
        // Read to write: the bus turns around after the read data.
        Cycle rtw = now + t_.CL + t_.BURST + 2 > t_.WL ? now + t_.CL + t_.BURST + 2 - t_.WL : now;
        next_wr_any_ = std::max(next_wr_any_, rtw);
        ++stats_.reads;
    } else {
        end = now + t_.WL + t_.BURST;
        b.next_pre = std::max(b.next_pre, end + t_.WR);
        next_wr_any_ = now + t_.CCD_S;
        group_at_[bg][unsigned(Cmd::Wr)] = now + t_.CCD_L;
        group_moved(bg, Cmd::Wr);
        next_rd_any_ = std::max(next_rd_any_, end + t_.WTR);
        ++stats_.writes;
    }
    if (q.count > 1) {
        // The run's next burst takes the served one's place: its own row outcome, the next order.
        q.count = q.count - 1;
        q.seq = q.seq + 1;
        q.outcome = RowOutcome::Undecided;
    } else {
        sink_->run_done(q, end);  // the run's last burst
        bq.erase(c.pos);
        if (bq.empty()) busy_[c.bank / 64] &= ~(uint64_t(1) << (c.bank % 64));
        --queued_;
    }
    // The entries before the served one still miss the row: the search resumes at it.
    if (b.hit == c.pos && b.scanned == c.pos) b.hit = kNone;
    else if (b.hit != kNone || c.pos < b.scanned) b.hit = kNone, rescan_from(c.bank, std::min(b.scanned, c.pos));
    b.scan_wait = 0;
    if (c.pos == 0) note_front(c.bank);
}

void DramChannel::run() {
    const Cycle now = mclk_.now();
    for (bool first = true;; first = false) {
        Choice c = first && plan_valid_ && plan_.at == now ? plan_ : choose(now);
        plan_valid_ = false;
        Cycle wake = c.at;
        if (c.cmd != Cmd::None && c.at <= now) {
            issue(c, now);
            continue;  // next_cmd_ is now + 1: the next choice waits a cycle
        }
        // The first burst still to arrive.
        while (!ahead_.empty() && ahead_.top() <= now) ahead_.pop();
        if (!ahead_.empty()) wake = std::min(wake, ahead_.top());
        // Nothing changes before c.at unless a burst comes: then c is the choice there.
        if (c.cmd == Cmd::Rd || c.cmd == Cmd::Wr) {
            const DramBurst& b = queues_[c.bank][c.pos];
            if (b.count == 1) sink_->prefetch_run(b);  // its answer's record is cold: fetch it while we sleep
        }
        plan_ = c;
        plan_valid_ = c.cmd != Cmd::None && (ahead_.empty() || ahead_.top() > c.at);
        if (queued_ || c.cmd == Cmd::Pre || c.cmd == Cmd::Ref) {
            if (wake != ~Cycle(0)) cal_.wake(unit_, wake);
        }
        return;
    }
}

}  // namespace dcusim
