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
      next_act_bg_(p.bank_groups, 0), next_rd_bg_(p.bank_groups, 0), next_wr_bg_(p.bank_groups, 0),
      // Channels refresh in turn, not all at once.
      next_ref_(p.t.REFI ? p.t.REFI + Cycle(index) * p.t.REFI / std::max(1u, p.channels) : ~Cycle(0)) {
    SC_HAS_PROCESS(DramChannel);
    SC_METHOD(run);
    sensitive << wake_;
    dont_initialize();
}

void DramChannel::enqueue(DramBurst b) {
    if (queue_.empty()) {
        // Refreshes that fell due while the channel was idle closed its banks
        // and were over before this burst: they cost it nothing.
        while (next_ref_ + t_.RP + t_.RFC <= b.arrival) {
            for (Bank& bk : banks_) bk.open = false;
            next_ref_ += t_.REFI;
            ++stats_.refreshes;
        }
    }
    auto later = [](const DramBurst& x, const DramBurst& y) { return x.arrival != y.arrival ? x.arrival < y.arrival : x.seq < y.seq; };
    queue_.insert(std::upper_bound(queue_.begin(), queue_.end(), b, later), b);
    wake_.notify(mclk_.until(std::max(b.arrival, mclk_.now())));
}

Cycle DramChannel::act_ready(uint32_t bg) const {
    Cycle t = std::max({next_cmd_, next_act_any_, next_act_bg_[bg]});
    if (faw_full_) t = std::max(t, faw_[faw_i_] + t_.FAW);  // the oldest of the last four ACTs
    return t;
}

// While a refresh is due: close the open banks, then refresh.
DramChannel::Choice DramChannel::refresh_step() const {
    Choice c;
    Cycle all_closed = next_cmd_;
    for (uint32_t i = 0; i < banks_.size(); ++i) {
        const Bank& b = banks_[i];
        if (b.open) {
            Cycle at = std::max(next_cmd_, b.next_pre);
            if (c.cmd == Cmd::None || at < c.at) c = {Cmd::Pre, at, 0, i};
        }
        all_closed = std::max(all_closed, b.next_act);
    }
    if (c.cmd == Cmd::None) c = {Cmd::Ref, std::max(all_closed, next_ref_), 0, 0};
    return c;
}

DramChannel::Choice DramChannel::choose(Cycle now) const {
    if (now >= next_ref_) return refresh_step();
    Choice best;
    bool best_is_column = false;
    uint64_t best_seq = ~0ull;
    // Per bank: the oldest arrived burst that hits its open row, else the oldest one.
    std::vector<int> hit(banks_.size(), -1), oldest(banks_.size(), -1);
    size_t seen = 0;
    for (size_t i = 0; i < queue_.size() && seen < p_.queue_depth; ++i) {
        const DramBurst& q = queue_[i];
        if (q.arrival > now) break;
        ++seen;
        uint32_t bi = q.bank_group * p_.banks_per_group + q.bank;
        const Bank& b = banks_[bi];
        if (oldest[bi] < 0) oldest[bi] = int(i);
        if (b.open && b.row == q.row && hit[bi] < 0) hit[bi] = int(i);
    }
    for (uint32_t bi = 0; bi < banks_.size(); ++bi) {
        if (oldest[bi] < 0) continue;
        const Bank& b = banks_[bi];
        Choice c;
        bool column = hit[bi] >= 0;
        size_t pos = size_t(column ? hit[bi] : oldest[bi]);
        const DramBurst& q = queue_[pos];
        uint32_t bg = q.bank_group;
        if (column) {
            c.cmd = q.write ? Cmd::Wr : Cmd::Rd;
            c.at = q.write ? std::max({next_cmd_, b.next_wr, next_wr_any_, next_wr_bg_[bg]})
                           : std::max({next_cmd_, b.next_rd, next_rd_any_, next_rd_bg_[bg]});
        } else if (!b.open) {
            c.cmd = Cmd::Act;
            c.at = std::max(act_ready(bg), b.next_act);
        } else {
            c.cmd = Cmd::Pre;
            c.at = std::max(next_cmd_, b.next_pre);
        }
        c.at = std::max(c.at, now);
        c.pos = pos;
        c.bank = bi;
        bool better = c.at < best.at || (c.at == best.at && ((column && !best_is_column) ||
                                                               (column == best_is_column && q.seq < best_seq)));
        if (best.cmd == Cmd::None || better) {
            best = c;
            best_is_column = column;
            best_seq = q.seq;
        }
    }
    // A refresh that falls due before the chosen command comes first.
    if (best.cmd != Cmd::None && best.at >= next_ref_) return refresh_step();
    return best;
}

void DramChannel::issue(const Choice& c, Cycle now) {
    next_cmd_ = now + 1;
    if (c.cmd == Cmd::Ref) {
        for (Bank& b : banks_) b.next_act = std::max(b.next_act, now + t_.RFC);
        next_ref_ += t_.REFI;
        ++stats_.refreshes;
        return;
    }
    Bank& b = banks_[c.bank];
    const uint32_t bg = c.bank / p_.banks_per_group;
    if (c.cmd == Cmd::Pre) {
        b.open = false;
        b.next_act = std::max(b.next_act, now + t_.RP);
        ++stats_.precharges;
        // The burst that needed another row pays a conflict (not during refresh).
        if (now < next_ref_ && !queue_.empty() && queue_[c.pos].outcome == RowOutcome::Undecided)
            queue_[c.pos].outcome = RowOutcome::Conflict;
        return;
    }
    DramBurst& q = queue_[c.pos];
    if (c.cmd == Cmd::Act) {
        b.open = true;
        b.row = q.row;
        b.next_rd = now + t_.RCD;
        b.next_wr = now + t_.RCDWR;
        b.next_pre = std::max(b.next_pre, now + t_.RAS);
        b.next_act = now + t_.RC;
        next_act_any_ = now + t_.RRD_S;
        next_act_bg_[bg] = now + t_.RRD_L;
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
        next_rd_bg_[bg] = now + t_.CCD_L;
        // Read to write: the bus turns around after the read data.
        Cycle rtw = now + t_.CL + t_.BURST + 2 > t_.WL ? now + t_.CL + t_.BURST + 2 - t_.WL : now;
        next_wr_any_ = std::max(next_wr_any_, rtw);
        ++stats_.reads;
    } else {
        end = now + t_.WL + t_.BURST;
        b.next_pre = std::max(b.next_pre, end + t_.WR);
        next_wr_any_ = now + t_.CCD_S;
        next_wr_bg_[bg] = now + t_.CCD_L;
        next_rd_any_ = std::max(next_rd_any_, end + t_.WTR);
        ++stats_.writes;
    }
    DramBurst done = q;
    queue_.erase(queue_.begin() + std::ptrdiff_t(c.pos));
    sink_->burst_done(done, end);
}

void DramChannel::run() {
    const Cycle now = mclk_.now();
    for (;;) {
        Choice c = choose(now);
        Cycle wake = c.at;
        if (c.cmd != Cmd::None && c.at <= now) {
            issue(c, now);
            continue;  // next_cmd_ is now + 1: the next choice waits a cycle
        }
        for (const DramBurst& q : queue_)  // the first burst still to arrive
            if (q.arrival > now) {
                wake = std::min(wake, q.arrival);
                break;
            }
        if (!queue_.empty() || c.cmd == Cmd::Pre || c.cmd == Cmd::Ref) {
            if (wake != ~Cycle(0)) wake_.notify(mclk_.until(wake));
        }
        return;
    }
}

}  // namespace dcusim
