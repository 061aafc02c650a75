#include "l2_slice.h"

#include <algorithm>

#include "../common/pc_profile.h"

namespace dcusim {

L2Slice::L2Slice(sc_core::sc_module_name name, const L2Params& p, const Clock& clk)
    : sc_module(name), p_(p), clk_(clk),
      tags_(p.geometry, p.replacement, p.interleave_bytes / p.geometry.line_bytes, p.channels,
            p.swaps.in_units_of(unsigned(__builtin_ctz(p.geometry.line_bytes)))),
      mshr_(p.mshrs), link_mshr_(p.sides.replicating() ? p.mshrs : 1), port_(clk, p.lookups_per_cycle),
      link_port_(clk, p.lookups_per_cycle), partials_(p.partial_fetch_delay, p.partial_lines, p.sector_bytes, p.partial_fetch_restart),
      atomics_(p.atomic_sector_cycles, p.atomic_same_address_cycles, p.atomic_int_same_address_cycles,
               p.atomic_float_same_address_cycles, p.atomic_in_order),
      responses_("responses", clk) {
    port_.attach([this] { run(port_); });
    if (p.sides.replicating()) link_port_.attach([this] { run(link_port_); });
    if (holds_partials()) partial_unit_ = clk.calendar().add([this] { run_partials(); });
    if (p.dirty_per_set && p.dirty_limit_sectors) {
        set_dirty_.assign(tags_.sets(), 0);
        set_cap_ = uint32_t((p.dirty_limit_sectors + tags_.sets() / 2) / tags_.sets());  // the nearest whole share
    }
}

void L2Slice::mem_request(MemRequest& req) {
    const Cycle arrival = std::max(clk_.now(), req.issue);
    tags_.prefetch(req.addr / p_.geometry.line_bytes);  // cold in a large L2: fetched while the request queues
    (req.link ? link_port_ : port_).push({&req, arrival}, arrival);
}

void L2Slice::run(Port& port) {
    port.serve([this](const std::pair<MemRequest*, Cycle>& r, Cycle now) { return lookup(*r.first, r.second, now); });
}

void L2Slice::answer(MemRequest& req, Cycle arrival, Cycle at) {
    if (req.op == trace::Op::Load && !req.link) {
        ++stats_.reads;
        stats_.read_latency_sum += at - arrival;
    }
    responses_.deliver(req, at);
}

bool L2Slice::lookup(MemRequest& req, Cycle arrival, Cycle now) {
    // Every write-back buffer busy: no lookup goes on (one might evict a dirty line) until DRAM
    // has written one. This is what bounds a write stream by the DRAM's write bandwidth.
    bool& stalled = req.link ? link_stalled_on_writeback_ : stalled_on_writeback_;
    stalled = p_.writeback_buffers && writebacks_in_flight_ >= p_.writeback_buffers;
    if (stalled) return false;
    CacheCounters& st = req.link ? stats_.link : stats_;
    const uint64_t line_no = req.addr / p_.geometry.line_bytes;
    const uint32_t want = sectors_in_line(req, line_no * p_.geometry.line_bytes, p_.geometry.line_bytes, p_.sector_bytes);
    if (req.op == trace::Op::Store) {
        bool posted = true;  // answered now (else when its write to mapped memory has crossed)
        const uint32_t full = want & full_sectors_in_line(req, line_no * p_.geometry.line_bytes, p_.geometry.line_bytes, p_.sector_bytes);
        if (is_copy(req)) {
            // The copy takes the data, clean; without store copies only a copy a load made does.
            if (p_.sides.store_copies) write_back(tags_.install(line_no, full, 0), now, req.pc);
            else tags_.update_if_present(line_no, full);
            forward(req, line_no, want, full, now);
        } else if (mapped_ && mapped_->contains(line_no * p_.geometry.line_bytes)) {
            write_through(req, arrival, line_no, want, full, now);
            posted = false;
        } else {
            // Sectors written in part, not valid before: with read-modify-write they are fetched now and
            // written back whole when they come (an MSHR target without a request); no MSHR, no lookup.
            const uint32_t partial = p_.partial_fetch ? want & ~full & ~tags_.valid_of(line_no) : 0;
            // Or, while sectors in part are held, later, unless the words written by then complete them.
            const bool held = holds_partials();
            bool link_table = false;
            std::optional<uint32_t> extra;
            if (!held && partial && !(extra = mshrs_for(line_no, req.link, link_table).miss(line_no, partial, {nullptr, arrival, partial, false})))
                return false;
            const uint32_t whole = held ? full | store_partial(req, line_no, partial, full, now) : full;
            write_sectors(line_no, want, whole, now, req.pc);  // write-allocate without a fetch
            drop_copies(line_no, p_.sides.side_of_cu(req.source));
            if (!held && partial) {
                stats_.partial_sectors += uint64_t(__builtin_popcount(partial));
                if (*extra) fetch(line_no, *extra, write_slot(now), req, link_table);
            }
        }
        st.sectors += uint64_t(__builtin_popcount(want));
        st.sector_hits += uint64_t(__builtin_popcount(want));
        ++st.stores;
        ++st.requests;
        if (posted) answer(req, arrival, now + p_.hit_latency);
        return true;
    }
    const uint32_t valid = tags_.lookup(line_no);
    const uint32_t missing = want & ~valid;
    if (!missing) {
        st.sectors += uint64_t(__builtin_popcount(want));
        st.sector_hits += uint64_t(__builtin_popcount(want));
        ++st.hits;
        if (req.op == trace::Op::Atomic) {
            ++st.atomics;
            count_lane_passes(st, req);
            write_sectors(line_no, want, want, now, req.pc);
            drop_copies(line_no, p_.sides.count);  // every copy: the atomic changed the line here
            answer(req, arrival, atomics_.execute(now, atomic_work(req, want)) + p_.atomic_latency + atomic_far(req));
        } else {
            answer(req, arrival, now + p_.hit_latency);
        }
        ++st.requests;
        return true;
    }
    bool link_table = false;
    auto extra = mshrs_for(line_no, req.link, link_table).miss(line_no, widen(missing) & ~valid, {&req, arrival, want, req.op == trace::Op::Atomic});
    if (!extra) return false;  // every MSHR busy: the lookup is retried, and counted, later
    st.sectors += uint64_t(__builtin_popcount(want));
    // Hits: the sectors valid, and the missing ones already on their way.
    st.sector_hits += uint64_t(__builtin_popcount(want & valid) + __builtin_popcount(missing & ~*extra));
    ++st.misses;
    if (PcProfile* prof = PcProfile::active(); prof && !req.link) ++prof->at(req.pc).l2_misses;
    ++st.requests;
    if (req.op == trace::Op::Atomic) ++st.atomics, count_lane_passes(st, req);
    if (*extra) fetch(line_no, *extra, now, req, link_table);
    else ++st.mshr_merges;
    return true;
}

// An atomic's lanes beyond the first on one address reach the L2 one by one (the L1 sends them so):
// each a request, after the first, so a hit, of the sectors its round's words lie in (one where a single
// word has them: validation/results/h200-atomics, a warp's 32 lanes on one address are 32 requests and
// 32 sectors at the L2, 32 words of one line 1 and 4; h100-atomicdups for rounds of several words).
void L2Slice::count_lane_passes(CacheCounters& st, const MemRequest& req) {
    const uint64_t extra = req.atomic_same - 1u, sectors = later_sectors(req);
    st.requests += extra, st.hits += extra, st.atomics += extra;
    st.sectors += sectors, st.sector_hits += sectors;
}

MshrTable<L2Slice::Target>& L2Slice::mshrs_for(uint64_t line_no, bool link, bool& link_table) {
    link_table = link;
    if (p_.sides.replicating() && !(link ? link_mshr_ : mshr_).find(line_no) && (link ? mshr_ : link_mshr_).find(line_no))
        link_table = !link;
    return link_table ? link_mshr_ : mshr_;
}

// The missing sectors grown to whole aligned fetch blocks (DRAM reads `fetch_sectors` at a time).
uint32_t L2Slice::widen(uint32_t missing) const {
    if (p_.fetch_sectors <= 1) return missing;
    const uint32_t group = (1u << p_.fetch_sectors) - 1;
    uint32_t out = 0;
    for (uint32_t s = 0; s < 32 && missing >> s; s += p_.fetch_sectors)  // up to the last missing sector
        if (missing & (group << s)) out |= group << s;
    return out;
}

L2Slice::DownReq& L2Slice::down_req(Down kind, uint64_t line_no, uint32_t sectors, Cycle issue, const MemRequest& by) {
    const uint32_t i = down_.acquire();
    DownReq& d = down_[i];
    d.kind = kind;
    d.link_table = false;
    d.far = 0;
    d.ack = nullptr;
    d.req = MemRequest{};
    d.req.op = kind == Down::Fetch ? trace::Op::Load : trace::Op::Store;
    d.req.source = by.source;
    d.req.home = by.home;  // a copy's requests cross the link to it
    d.req.addr = line_no * p_.geometry.line_bytes;
    d.req.size = p_.geometry.line_bytes;
    d.req.sectors = sectors;
    d.req.sector_bytes = p_.sector_bytes;
    d.req.issue = issue;
    d.req.reply_to = this;
    d.req.tag = i;
    d.req.pc = by.pc;
    return d;
}

// Missing sectors come from DRAM, or, for a copy, from the line's home over the link.
void L2Slice::fetch(uint64_t line_no, uint32_t sectors, Cycle now, const MemRequest& by, bool link_table) {
    const bool copy = is_copy(by);
    const uint32_t far = copy ? p_.sides.far_latency : p_.sides.replicating() ? 0 : p_.sides.far_cycles(by.source, p_.index);
    DownReq& d = down_req(Down::Fetch, line_no, sectors, now + far, by);
    d.far = far;
    d.link_table = link_table;
    d.req.link = copy;
    stats_.far_fetches += far != 0;
    if (!copy) ++stats_.fetches;  // DRAM reads sent
    if (copy) link->to_home(d.req);
    else dram->mem_request(d.req);
}

void L2Slice::forward(const MemRequest& by, uint64_t line_no, uint32_t sectors, uint32_t full, Cycle now) {
    DownReq& d = down_req(Down::Forward, line_no, sectors, now + p_.sides.far_latency, by);
    d.req.partial = sectors & ~full;
    d.req.words = words_in_line(by, line_no * p_.geometry.line_bytes);  // the home completes sectors from them
    d.req.link = true;
    link->to_home(d.req);
}

void L2Slice::drop_copies(uint64_t line_no, uint32_t from_side) {
    if (p_.sides.replicating()) link->drop_copies(p_.index, line_no, from_side);
}

void L2Slice::add_foreign_dirty(uint64_t line_no) {
    const uint32_t all = uint32_t((uint64_t(1) << (p_.geometry.line_bytes / p_.sector_bytes)) - 1);
    write_sectors(line_no, all, all, clk_.now(), 0);
}

// Stores and atomics: the sectors become dirty, and those written whole valid
// (allocating the line, which may write back a dirty victim). With a dirty limit, the oldest dirty
// lines are then written back (and kept, clean) while the slice holds more
// dirty sectors than the limit; with l2.dirty_scope = set, the set's least recently used dirty lines
// while the set holds more than its share.
void L2Slice::write_sectors(uint64_t line_no, uint32_t sectors, uint32_t full, Cycle now, uint64_t pc) {
    mark_dirty(line_no, sectors, full, [&](const SectorTags::Victim& v) { write_back(v, now, pc); });
}

template <class Evict>
void L2Slice::mark_dirty(uint64_t line_no, uint32_t sectors, uint32_t full, Evict&& evict) {
    const uint32_t before = p_.dirty_limit_sectors ? tags_.dirty_of(line_no) : 0;
    evict(tags_.install(line_no, full, sectors));
    if (!p_.dirty_limit_sectors) return;
    const uint32_t added = sectors & ~before;
    if (!added) return;
    dirty_sectors_ += uint64_t(__builtin_popcount(added));
    if (set_cap_) {
        const uint32_t set = tags_.set_of(line_no);
        set_dirty_[set] = uint16_t(set_dirty_[set] + __builtin_popcount(added));
        uint64_t oldest;
        while (set_dirty_[set] > set_cap_ && tags_.oldest_dirty(set, line_no, &oldest)) evict({true, oldest, tags_.clean(oldest)});
        return;
    }
    if (!before) dirty_order_.push_back(line_no);
    while (dirty_sectors_ > p_.dirty_limit_sectors && !dirty_order_.empty()) {
        const uint64_t oldest = dirty_order_.front();
        dirty_order_.pop_front();
        if (const uint32_t d = tags_.clean(oldest)) evict({true, oldest, d});
    }
}

L2Slice::WarmTraffic L2Slice::warm(uint64_t line_no, uint32_t sectors, uint32_t full, trace::Op op, bool copy) {
    WarmTraffic t;
    // A victim leaves as a write-back would, untimed: its dirty sectors are counted as written.
    auto drop = [this, &t](const SectorTags::Victim& v) { t.written_sectors += leave(v); };
    if (op == trace::Op::Store && copy && !p_.sides.store_copies) {
        tags_.update_if_present(line_no, full);
        return t;
    }
    if (op != trace::Op::Store || copy) {
        // A fill (a copy's from the home over the link, else from DRAM), or a copy's store (kept clean).
        const uint32_t valid = tags_.lookup(line_no);
        const uint32_t add = op == trace::Op::Store ? full : widen(sectors & ~valid) & ~valid;
        if (add || !valid) drop(tags_.install(line_no, add, 0));
        if (!copy && op != trace::Op::Store) t.read_sectors += uint32_t(__builtin_popcount(add));
        if (op != trace::Op::Atomic) return t;
    }
    // A store or an atomic at the home (an atomic's line now fetched): dirty; a store leaves in part
    // what it does not fill (not fetched here: sectors in part are left to the timed stretches).
    mark_dirty(line_no, sectors, op == trace::Op::Atomic ? sectors : full, drop);
    return t;
}

uint32_t L2Slice::store_partial(const MemRequest& req, uint64_t line_no, uint32_t partial, uint32_t full, Cycle now) {
    const uint64_t line_addr = line_no * p_.geometry.line_bytes;
    const uint32_t complete =
        partials_.store(line_no, words_in_line(req, line_addr), partial, full, now, {req.pc, req.source, req.home, req.link});
    if (!partials_.empty()) clk_.calendar().wake(partial_unit_, partials_.front().at);
    return complete;
}

void L2Slice::run_partials() {
    const Cycle now = clk_.now();
    for (; !partials_.empty() && partials_.front().at <= now; partials_.pop()) {
        const PartialSectors::Due d = partials_.front();
        if (partials_.restarted(d)) continue;  // stored to since: due again later
        const uint32_t in_part = tags_.dirty_of(d.line_no) & ~tags_.valid_of(d.line_no);
        const uint32_t still = d.sectors & in_part;
        if (!in_part) partials_.forget(d.line_no);
        if (!still) continue;  // completed, fetched for a read, or gone
        MemRequest by;
        by.pc = d.origin.pc, by.source = d.origin.source, by.home = d.origin.home, by.link = d.origin.link;
        bool link_table = false;
        const auto extra = mshrs_for(d.line_no, by.link, link_table).miss(d.line_no, still, {nullptr, now, still, false});
        if (!extra) return clk_.calendar().wake(partial_unit_, now + 1);  // every MSHR busy: tried again next cycle
        stats_.partial_sectors += uint64_t(__builtin_popcount(*extra));  // not those already on their way
        if (*extra) fetch(d.line_no, *extra, write_slot(now), by, link_table);
    }
    if (!partials_.empty()) clk_.calendar().wake(partial_unit_, partials_.front().at);
}

uint32_t L2Slice::leave(const SectorTags::Victim& v) {
    if (holds_partials() && v.valid) partials_.forget(v.line_no);  // its words are not the next line's
    if (!v.valid || !v.dirty) return 0;
    const uint32_t n = uint32_t(__builtin_popcount(v.dirty));
    if (p_.dirty_limit_sectors) dirty_sectors_ -= std::min<uint64_t>(dirty_sectors_, n);
    if (set_cap_) {
        uint16_t& c = set_dirty_[tags_.set_of(v.line_no)];
        c = uint16_t(c - std::min<uint32_t>(c, n));
    }
    return n;
}

void L2Slice::write_back(const SectorTags::Victim& v, Cycle now, uint64_t pc) {
    if (!leave(v)) return;
    DownReq& d = down_req(Down::Writeback, v.line_no, v.dirty, write_slot(now), MemRequest{});  // the home slice writes to its own memory
    d.req.pc = pc;  // the access whose allocation evicted the line
    ++stats_.writebacks;
    ++writebacks_in_flight_;
    stats_.writeback_bytes += uint64_t(__builtin_popcount(v.dirty)) * p_.sector_bytes;
    dram->mem_request(d.req);
}

void L2Slice::write_through(MemRequest& store, Cycle arrival, uint64_t line_no, uint32_t sectors, uint32_t full, Cycle now) {
    write_back(tags_.install(line_no, full, 0), now, store.pc);  // the data kept clean; a dirty victim written back
    DownReq& d = down_req(Down::Writeback, line_no, sectors, write_slot(now), MemRequest{});
    d.req.partial = sectors & ~full;
    d.req.pc = store.pc;
    d.ack = &store;
    d.ack_arrival = arrival;
    ++writebacks_in_flight_;  // a write buffer, as a write-back takes: the link's rate bounds a store stream
    dram->mem_request(d.req);
}

void L2Slice::mem_response(MemRequest& r) {
    const uint32_t i = uint32_t(r.tag);
    const DownReq& d = down_[i];
    const Down kind = d.kind;
    const bool link_table = d.link_table;
    const uint32_t sectors = d.req.sectors, far = d.far;
    const uint64_t line_no = d.req.addr / p_.geometry.line_bytes, pc = d.req.pc;
    MemRequest* const ack = d.ack;
    const Cycle ack_arrival = d.ack_arrival;
    down_.release(i);
    const Cycle now = clk_.now();
    if (kind == Down::Forward) return;  // the home has the write
    if (kind == Down::Writeback) {
        --writebacks_in_flight_;
        if (ack) answer(*ack, ack_arrival, now);
        if (stalled_on_writeback_) stats_.writeback_stall_cycles += port_.resume(now);
        if (link_stalled_on_writeback_) stats_.writeback_stall_cycles += link_port_.resume(now);
        return;
    }
    write_back(tags_.install(line_no, sectors, 0), now, pc);
    if (holds_partials()) partials_.filled(line_no, sectors);
    const Cycle ready = now + far;  // the data is back at the line's home; a far fill crosses the link once more
    auto& table = link_table ? link_mshr_ : mshr_;
    auto* e = table.find(line_no);
    if (--e->fetches) return;
    done_targets_.clear();  // answering may touch the table: take the targets out first
    e->targets.for_each([&](const Target& t) {
        done_targets_.push_back(t);
        __builtin_prefetch(t.req);  // the requests are cold: their misses overlap
    });
    table.release(line_no);
    for (const Target& t : done_targets_) {
        if (!t.req) {  // sectors written in part, now whole: written back at once
            if (const uint32_t dirty = tags_.clean(line_no, t.sectors)) write_back({true, line_no, dirty}, now, pc);
            continue;
        }
        if (t.atomic) {
            write_sectors(line_no, t.sectors, t.sectors, now, t.req->pc);
            drop_copies(line_no, p_.sides.count);
            answer(*t.req, t.arrival, atomics_.execute(ready, atomic_work(*t.req, t.sectors)) + p_.atomic_latency + atomic_far(*t.req));
        } else {
            answer(*t.req, t.arrival, ready + p_.hit_latency);
        }
    }
    if (!stalled_on_writeback_) stats_.mshr_stall_cycles += port_.resume(now);
    if (!link_stalled_on_writeback_) stats_.link.mshr_stall_cycles += link_port_.resume(now);
}

}  // namespace dcusim
