#include "crossbar.h"

#include <algorithm>
#include <cmath>

#include "../common/tick_slot.h"

namespace dcusim {

Crossbar::Crossbar(sc_core::sc_module_name name, const NocParams& p, const Clock& clk)
    : sc_module(name), p_(p), map_(p.channel_map()), clk_(clk),
      up_free_(p.channels, 0), down_free_(p.channels, 0),
      cu_free_(p.cu_store_bytes_per_cycle > 0 || p.cu_store_request_cycles > 0 ? p.cus : 0, 0),
      responses_("responses", clk) {}

uint64_t Crossbar::data_bytes(const MemRequest& r) {
    return r.sectors ? uint64_t(__builtin_popcount(r.sectors)) * r.sector_bytes : r.size;
}

// Toward the L2 an atomic carries its operands: each pass the L1 sends is a request with its words' sectors.
uint64_t Crossbar::request_bytes(const MemRequest& r) {
    if (r.op == trace::Op::Load) return 0;
    const uint64_t later = r.op == trace::Op::Atomic && r.sectors ? uint64_t(r.atomic_later_sectors) * r.sector_bytes : 0;
    return data_bytes(r) + later;
}

std::pair<Cycle, Cycle> Crossbar::take_link(Cycle& free, double rate, Cycle ready, uint64_t bytes, double at_least) const {
    if (rate <= 0) {
        const Cycle start = std::max(ready, free);
        free = start + std::max<Cycle>(link_cycles(bytes), Cycle(std::ceil(at_least)));
        return {start, free};
    }
    constexpr Cycle kTicks = TickSlot::kPerCycle;
    const double ticks = std::max(bytes ? double(bytes) * kTicks / rate : double(kTicks), at_least * kTicks);
    const Cycle start = TickSlot::hold(free, ready, Cycle(std::ceil(ticks)));
    return {start / kTicks, TickSlot::cycle_at(free)};
}

// A CU's store port: a request holds it for its data at cu_store_bytes_per_cycle, and at least
// cu_store_request_cycles for each request the L2 gets of it (an atomic's lanes on its busiest
// address are sent one by one); it enters its channel's link when it starts leaving the CU (cut-through).
Cycle Crossbar::take_cu_port(Cycle& free, Cycle ready, uint64_t bytes, uint32_t requests) const {
    constexpr Cycle kTicks = TickSlot::kPerCycle;
    double ticks = p_.cu_store_request_cycles * requests * kTicks;
    if (p_.cu_store_bytes_per_cycle > 0) ticks = std::max(ticks, double(bytes) * kTicks / p_.cu_store_bytes_per_cycle);
    return TickSlot::hold(free, ready, std::max<Cycle>(1, Cycle(std::ceil(ticks)))) / kTicks;
}

void Crossbar::mem_request(MemRequest& req) {
    const uint32_t h = hops_.acquire();
    Hop& hop = hops_[h];
    hop.reply_to = req.reply_to;
    hop.tag = req.tag;
    hop.channel = channel_of(req.addr);
    req.home = uint16_t(hop.channel);
    if (p_.sides.replicating() && req.op != trace::Op::Atomic) hop.channel = p_.sides.mirror(hop.channel, p_.sides.side_of_cu(req.source));
    const uint64_t bytes = request_bytes(req);
    const Cycle issued = std::max(clk_.now(), req.issue);
    Cycle ready = issued;
    if (bytes && req.source < cu_free_.size()) {
        const uint32_t requests = req.op == trace::Op::Atomic ? std::max<uint32_t>(1, req.atomic_same) : 1;
        ready = take_cu_port(cu_free_[req.source], issued, bytes, requests);
    }
    // A store that leaves a sector in part is merged into the sector at its slice: the channel takes
    // such requests no faster than partial_store_cycles, whatever their bytes.
    const double at_least = req.op == trace::Op::Store && req.partial ? p_.partial_store_cycles : 0;
    const auto [start, free] = take_link(up_free_[hop.channel], p_.store_bytes_per_cycle, ready, bytes, at_least);
    stats_.queue_cycles += start - issued;
    ++stats_.requests;
    stats_.request_bytes += bytes;
    req.reply_to = hop.reply_to ? this : nullptr;  // no answer wanted: none comes back
    req.tag = h;
    req.issue = free + p_.latency;
    channels[hop.channel]->mem_request(req);
    if (!hop.reply_to) hops_.release(h);
}

void Crossbar::mem_response(MemRequest& req) {
    const uint32_t h = uint32_t(req.tag);
    const Hop hop = hops_[h];
    hops_.release(h);
    const uint64_t bytes = req.op == trace::Op::Store ? 0 : data_bytes(req);
    const auto [start, free] = take_link(down_free_[hop.channel], p_.load_bytes_per_cycle, clk_.now(), bytes);
    stats_.queue_cycles += start - clk_.now();
    stats_.response_bytes += bytes;
    req.reply_to = hop.reply_to;
    req.tag = hop.tag;
    responses_.deliver(req, free + p_.latency);
}

}  // namespace dcusim
