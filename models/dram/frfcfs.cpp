#include "frfcfs.h"

#include <algorithm>

namespace dcusim {

FrFcfs::FrFcfs(const DramParams& p, const DramTimingChecker& tc)
    : tc_(tc), queue_depth_(p.queue_depth), banks_per_group_(p.banks_per_group), banks_(tc.banks()),
      cands_(tc.banks()), queues_(tc.banks()), busy_((tc.banks() + 63) / 64, 0) {}

bool FrFcfs::enqueue(const DramBurst& b) {
    auto later = [](const DramBurst& x, const DramBurst& y) { return x.arrival != y.arrival ? x.arrival < y.arrival : x.seq < y.seq; };
    const uint32_t bi = b.bank;
    auto& q = queues_[bi];
    Bank& bk = banks_[bi];
    // A burst queued behind others, in order, leaves its bank's candidate as it
    // is unless that is a PRE (the burst may hit the open row): a row hit found
    // earlier, an ACT for the oldest burst, or waiting for the oldest to arrive
    // all stay.
    const bool in_order = q.empty() || !later(b, q.back());
    const bool keeps = !q.empty() && in_order && cands_.until[bi] != 0 && cands_.cmd[bi] != DramCmd::Pre;
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
    if (!keeps) cands_.until[bi] = 0;
    return keeps;
}

void FrFcfs::rescan_from(uint32_t bank, size_t i) const {
    Bank& b = banks_[bank];
    const auto& q = queues_[bank];
    uint32_t n = 0;
    for (size_t k = 0; k < i; ++k) n += q[k].count;
    b.scanned = i, b.scanned_bursts = n;
}

// The entry of the oldest arrived burst to the open row among the bank's
// `queue_depth` oldest bursts (kNone: none), resuming the search kept in the bank.
size_t FrFcfs::row_hit(uint32_t bank, Cycle now) const {
    Bank& b = banks_[bank];
    if (b.hit != kNone || now < b.scan_wait) return b.hit;
    const auto& q = queues_[bank];
    const uint64_t row = tc_.bank(bank).row;
    size_t i = b.scanned;
    uint32_t n = b.scanned_bursts;  // bursts ahead of entry i
    // Entry i is in the window while its first burst is.
    auto in_window = [&] { return i < q.size() && n < queue_depth_; };
    while (in_window() && q[i].arrival <= now && q[i].row != row) n += q[i].count, ++i;
    b.scanned = i, b.scanned_bursts = n;
    b.scan_wait = in_window() && q[i].arrival > now ? q[i].arrival : kNever;
    if (in_window() && q[i].arrival <= now) {
        b.hit = i;
        b.hit_seq = q[i].seq;
        b.hit_write = q[i].write;
    }
    return b.hit;
}

void FrFcfs::note_front(uint32_t bank) {
    const auto& q = queues_[bank];
    Bank& b = banks_[bank];
    b.front_arrival = q.empty() ? kNever : q.front().arrival;
    if (!q.empty()) b.front_seq = q.front().seq;
}

// The bank's next command: a column command for the oldest row hit among its
// oldest few, else ACT (closed) or PRE (another row open) for its oldest burst.
void FrFcfs::candidate(uint32_t bank, Cycle now) const {
    Bank& b = banks_[bank];
    Cands& c = cands_;
    c.until[bank] = kNever;
    if (b.front_arrival > now) {
        c.cmd[bank] = DramCmd::None;
        c.until[bank] = b.front_arrival;
        return;
    }
    const bool open = tc_.bank(bank).open;
    DramCmd cmd;
    if (open && row_hit(bank, now) != kNone) {
        b.cand_column = true;
        c.order[bank] = b.hit_seq;
        cmd = b.hit_write ? DramCmd::Wr : DramCmd::Rd;
    } else {
        b.cand_column = false;
        c.order[bank] = uint64_t(1) << 63 | b.front_seq;
        cmd = open ? DramCmd::Pre : DramCmd::Act;
        if (open) c.until[bank] = b.scan_wait;  // a row hit may still arrive
    }
    b.cand_at = tc_.bank_at(bank, cmd);
    c.cmd[bank] = cmd;
    c.bound[bank] = std::max(b.cand_at, tc_.group_at(bank / banks_per_group_, cmd));
}

DramChoice FrFcfs::choose(Cycle now, const Cycle any[kDramCmds]) const {
    // Earliest cycle first, then column commands before row commands, then the
    // oldest burst. Branch-free: which bank wins is data, not control flow.
    Cycle best_at = kNever;
    uint64_t best_order = ~uint64_t(0);
    uint32_t best_bank = 0;
    const Cycle* until = cands_.until.data();
    const Cycle* bound = cands_.bound.data();
    const uint64_t* order = cands_.order.data();
    const DramCmd* cmd = cands_.cmd.data();
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
    DramChoice best;
    if (best_at != kNever) {
        const Bank& b = banks_[best_bank];
        best = {cmd[best_bank], best_at, best_bank, b.cand_column ? b.hit : 0};
    }
    return best;
}

void FrFcfs::served(const DramChoice& c) {
    Bank& b = banks_[c.bank];
    auto& bq = queues_[c.bank];
    DramBurst& q = bq[c.pos];
    cands_.until[c.bank] = 0;
    if (q.count > 1) {
        // The run's next burst takes the served one's place: its own row outcome, the next order.
        q.count = q.count - 1;
        q.seq = q.seq + 1;
        q.outcome = RowOutcome::Undecided;
    } else {
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

}  // namespace dcusim
