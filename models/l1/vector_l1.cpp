#include "vector_l1.h"

#include <algorithm>

#include "../common/pc_profile.h"

namespace dcusim {

VectorL1::VectorL1(sc_core::sc_module_name name, const L1Params& p, const Clock& clk)
    : sc_module(name), p_(p), clk_(clk), tags_(p.geometry, p.replacement), mshr_(p.mshrs),
      port_(clk, p.lookups_per_cycle), banks_(std::max(1u, p.data_banks), p.data_bank_bytes), responses_("responses", clk) {
    port_.attach([this] { run(); });
}

// Private (local) memory: offsets are per lane; lane i's element at offset o
// sits next to lane i+1's (elements of the access size, as GCN's swizzled
// scratch and CUDA's local memory lay them out), in a window per wave slot,
// the windows of all CUs side by side (sized from the kernel's private bytes).
uint64_t VectorL1::private_addr(const MemRequest& req, unsigned lane, uint64_t offset) const {
    constexpr uint64_t kBase = 0xf00000000000ull;
    const uint64_t e = req.instr->bytes;
    const uint64_t window = (uint64_t(p_.cu_index) * p_.wave_slots + req.wave_id) * private_window_;
    return kBase + window + (offset / e) * (p_.wave_size * e) + lane * e + offset % e;
}

Cycle VectorL1::wave_request(MemRequest& req) {
    const Cycle arrival = std::max(clk_.now(), req.issue);
    const uint32_t op = ops_.acquire();
    const bool local = req.space == trace::Space::Local;
    auto priv = [&](unsigned lane, uint64_t a) { return private_addr(req, lane, a); };
    std::vector<uint64_t>* cover = req.op == trace::Op::Store ? &cover_ : nullptr;  // a store's bytes, in the same walk
    if (local) coalesce(*req.instr, *req.wave, p_.geometry.line_bytes, p_.sector_bytes, scratch_, priv, cover);
    else coalesce(*req.instr, *req.wave, p_.geometry.line_bytes, p_.sector_bytes, scratch_, cover);
    if (cover) store_grains(p_.geometry.line_bytes, grain(), scratch_, cover_);
    ops_[op] = {&req, uint32_t(scratch_.size()), arrival, arrival};
    // A load whose words crowd the data banks holds the port beyond its tag lookups (from its first line on).
    uint32_t extra = 0;
    if (p_.data_banks && req.op == trace::Op::Load && !scratch_.empty()) {
        const uint32_t bank = local ? banks_.cycles(*req.instr, *req.wave, priv)
                                    : banks_.cycles(*req.instr, *req.wave);
        const uint32_t slots = uint32_t(scratch_.size()), per = p_.lookups_per_cycle;
        if (bank * per > slots) {
            extra = bank * per - slots;
            stats_.data_bank_cycles += bank - (slots + per - 1) / per;
        }
    }
    // An atomic's lanes that share an address take a tag pass each (the H200's L1 sends them one by one).
    if (req.op == trace::Op::Atomic) extra = atomic_lanes(*req.instr, *req.wave, p_.geometry.line_bytes, p_.sector_bytes, grain(), scratch_,
                                                         atomic_lanes_);
    for (size_t k = 0; k < scratch_.size(); ++k) {
        const LineAccess& la = scratch_[k];
        const AtomicLanes al = req.op == trace::Op::Atomic ? atomic_lanes_[k] : AtomicLanes{};
        port_.push({la.line, req.pc, la.sectors, la.written, la.partial, la.words, op, req.op, req.space, req.instr->readonly, al.same,
                    al.offset, al.later_sectors, al.later_grains, req.instr->atomic},
                   arrival, extra);
        extra = 0;
    }
    return kAnswerLater;
}

void VectorL1::run() {
    port_.serve([this](const Lookup& lk, Cycle now) { return lookup(lk, now); });
}

bool VectorL1::lookup(const Lookup& lk, Cycle now) {
    const uint64_t line_no = lk.line / p_.geometry.line_bytes;
    const uint32_t want = lk.sectors;
    if (lk.kind == trace::Op::Store) {
        // A store's sectors hit when its line holds a way, whichever sectors it holds: the H200 counts
        // sectors stored beside loaded ones as hits (validation/results/h200-l1storehits).
        if (tags_.present(line_no) || mshr_.find(line_no)) {
            const uint64_t n = uint64_t(__builtin_popcount(want));
            stats_.sector_hits += n;
            stats_.store_sector_hits += n;
        }
        stats_.store_sectors += uint64_t(__builtin_popcount(want));
        const uint32_t whole = whole_sectors(lk);  // a sector written in part is not valid here either
        const bool local = lk.space == trace::Space::Local;
        if (local ? p_.local_write_allocate : p_.global_write_allocate)
            tags_.install(line_no, whole, 0);  // still written through: the victim is never dirty
        else
            tags_.update_if_present(line_no, whole);
        ++stats_.stores;
        send(Down::Write, lk, want, now);
    } else if (lk.kind == trace::Op::Atomic) {
        ++stats_.atomics;  // atomics execute at the L2
        // The lanes beyond the first on one address leave in rounds, each with its words' sectors, as the
        // H200's L1 counts them (validation/results/h200-atomics: a warp's 32 lanes on one address, 32 sectors).
        stats_.sectors += lk.later_sectors;
        send(Down::Atomic, lk, want, now);
    } else {
        const uint32_t missing = want & ~tags_.lookup(line_no);
        const bool ro = lk.readonly;
        if (!missing) {
            stats_.sector_hits += uint64_t(__builtin_popcount(want));
            ++stats_.hits;
            stats_.ro_hits += ro;
            stats_.ro_requests += ro;
            line_done(lk.op, now + p_.hit_latency);
        } else {
            auto extra = mshr_.miss(line_no, missing, {lk.op});
            if (!extra) return false;  // every MSHR busy: the lookup is retried, and counted, later
            ++stats_.misses;
            stats_.sector_hits += uint64_t(__builtin_popcount(want & ~missing));
            if (PcProfile* prof = PcProfile::active()) ++prof->at(lk.pc).l1_misses;
            stats_.ro_misses += ro;
            stats_.ro_requests += ro;
            stats_.sector_hits += uint64_t(__builtin_popcount(missing & ~*extra));  // already on their way
            if (*extra) send(Down::Fill, lk, *extra, now);
            else ++stats_.mshr_merges;
        }
    }
    ++stats_.requests;
    stats_.sectors += uint64_t(__builtin_popcount(want));
    return true;
}

uint32_t VectorL1::whole_sectors(const Lookup& lk) const {
    const uint32_t per = p_.sector_bytes / grain(), group = per >= 32 ? ~0u : (1u << per) - 1;
    const uint32_t whole_grains = lk.written & ~lk.partial;
    uint32_t out = 0;
    for (uint32_t s = 0; s * per < 32 && s * p_.sector_bytes < p_.geometry.line_bytes; ++s)
        if ((whole_grains >> (s * per) & group) == group) out |= 1u << s;
    return out;
}

void VectorL1::send(Down kind, const Lookup& lk, uint32_t sectors, Cycle now) {
    const uint32_t i = down_.acquire();
    DownReq& d = down_[i];
    d.kind = kind;
    d.op = lk.op;
    d.req = MemRequest{};
    d.req.op = kind == Down::Fill ? trace::Op::Load : kind == Down::Write ? trace::Op::Store : trace::Op::Atomic;
    d.req.space = lk.space;
    d.req.source = uint16_t(p_.cu_index);
    d.req.addr = lk.line;
    d.req.size = p_.geometry.line_bytes;
    d.req.sectors = sectors;
    d.req.sector_bytes = p_.sector_bytes;
    if (kind == Down::Write) {  // the L2 sees the store grain by grain
        d.req.sectors = lk.written;
        d.req.partial = lk.partial;
        d.req.words = lk.words;
        d.req.sector_bytes = grain();
    }
    d.req.issue = now;
    d.req.reply_to = this;
    d.req.tag = i;
    d.req.atomic_same = lk.same;
    d.req.atomic_offset = lk.offset;
    d.req.atomic_later_grains = lk.later_grains;
    d.req.atomic_later_sectors = lk.later_sectors;
    d.req.atomic_kind = lk.atomic_kind;
    d.req.pc = lk.pc;  // for a fill, the op that missed first (fills complete through the MSHR)
    if (kind == Down::Fill) ++stats_.fetches;
    down->mem_request(d.req);
}

void VectorL1::mem_response(MemRequest& r) {
    const uint32_t i = uint32_t(r.tag);
    const DownReq& d = down_[i];
    const Down kind = d.kind;
    const uint32_t op = d.op, sectors = d.req.sectors;
    const uint64_t line_no = d.req.addr / p_.geometry.line_bytes;
    down_.release(i);
    const Cycle now = clk_.now();
    if (kind != Down::Fill) return line_done(op, now);  // write acknowledged, atomic's data back
    __builtin_prefetch(&ops_[op]);  // the first target's instruction record, cold by now: fetched while the tags install
    tags_.install(line_no, sectors, 0);  // write-through: a victim is never dirty
    auto* e = mshr_.find(line_no);
    if (--e->fetches) return;
    e->targets.for_each([&](const Target& t) { line_done(t.op, now + p_.hit_latency); });
    mshr_.release(line_no);
    stats_.mshr_stall_cycles += port_.resume(now);
}

void VectorL1::line_done(uint32_t op, Cycle when) {
    Op& o = ops_[op];
    o.done = std::max(o.done, when);
    if (--o.lines) return;
    if (o.req->op == trace::Op::Load) {
        ++stats_.load_instructions;
        stats_.load_latency_sum += o.done - o.arrival;
    }
    responses_.deliver(*o.req, o.done);
    ops_.release(op);
}

}  // namespace dcusim
