// The link between the sides of a partitioned L2 that keeps copies per side
// (partitions.h), as a unit of its own: a slice holding a copy reaches the
// line's home through it (fetches of missing copies, stores written through),
// and a home reaches the copies the other sides hold (a write there makes them
// stale). Slices talk to it only through L2LinkIf, and it to them only through
// L2SideIf, so each is tested without the other. The link's latency is in the
// requests (`issue`): the slices know their distance; the link routes. With
// `link_sectors_per_cycle` the data that crosses takes its turn on the way it
// goes (side to side): a store's data on its way to the home, a copy's fetch
// on its way back (the link answers the copy once the data is across).
#pragma once

#include <systemc>

#include <vector>

#include "../common/clock.h"
#include "../common/request.h"
#include "../common/response_queue.h"
#include "../common/slot_pool.h"
#include "partitions.h"

namespace dcusim {

// What a slice offers the link: requests from a copy (req.link set), and
// dropping its copy of a line.
class L2SideIf : public MemTargetIf {
public:
    virtual void drop_copy(uint64_t line_no) = 0;
};

class L2LinkIf : public virtual sc_core::sc_interface {
public:
    // A copy's request to the line's home (req.home).
    virtual void to_home(MemRequest& req) = 0;
    // A write at home channel `home`: the copies of the line on every side but
    // the home's and `from_side` (a side's own store keeps its copy) are dropped.
    virtual void drop_copies(uint32_t home, uint64_t line_no, uint32_t from_side) = 0;
};

class L2Link : public sc_core::sc_module, public L2LinkIf, public MemResponder {
public:
    L2Link(sc_core::sc_module_name name, const L2Partitions& sides, const Clock& clk)
        : sc_module(name), sides_(sides), clk_(clk), free_(size_t(sides.count) * sides.count, 0), responses_("responses", clk) {}
    // The slices, by channel (bound by the platform).
    void attach(std::vector<L2SideIf*> slices) { slices_ = std::move(slices); }
    void to_home(MemRequest& req) override;
    void drop_copies(uint32_t home, uint64_t line_no, uint32_t from_side) override {
        const uint32_t own = sides_.side_of_channel(home);
        for (uint32_t side = 0; side < sides_.count; ++side)
            if (side != own && side != from_side) slices_[sides_.mirror(home, side)]->drop_copy(line_no);
    }
    // A home's answer to a copy's fetch: sent on once its data has crossed.
    void mem_response(MemRequest& req) override;

private:
    struct Hop {
        MemResponder* reply_to;
        uint64_t tag;
    };
    // The cycle `sectors` of data that may leave side `from` at `ready` are across to side `to`.
    Cycle cross(uint32_t from, uint32_t to, Cycle ready, uint32_t sectors);
    static uint32_t sectors_of(const MemRequest& r) { return r.sectors ? uint32_t(__builtin_popcount(r.sectors)) : 1; }

    L2Partitions sides_;
    const Clock& clk_;
    std::vector<L2SideIf*> slices_;
    std::vector<Cycle> free_;  // per way (from x count + to): when it is free, in ticks (tick_slot.h)
    SlotPool<Hop> hops_;
    ResponseQueue responses_;
};

}  // namespace dcusim
