// The link between the sides of a partitioned L2 that keeps copies per side
// (partitions.h), as a unit of its own: a slice holding a copy reaches the
// line's home through it (fetches of missing copies, stores written through),
// and a home reaches the copies the other sides hold (a write there makes them
// stale). Slices talk to it only through L2LinkIf, and it to them only through
// L2SideIf, so each is tested without the other. The link's latency is in the
// requests (`issue`): the slices know their distance; the link routes.
#pragma once

#include <systemc>

#include <vector>

#include "../common/request.h"
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

class L2Link : public sc_core::sc_module, public L2LinkIf {
public:
    L2Link(sc_core::sc_module_name name, const L2Partitions& sides) : sc_module(name), sides_(sides) {}
    // The slices, by channel (bound by the platform).
    void attach(std::vector<L2SideIf*> slices) { slices_ = std::move(slices); }
    void to_home(MemRequest& req) override { slices_[req.home]->mem_request(req); }
    void drop_copies(uint32_t home, uint64_t line_no, uint32_t from_side) override {
        const uint32_t own = sides_.side_of_channel(home);
        for (uint32_t side = 0; side < sides_.count; ++side)
            if (side != own && side != from_side) slices_[sides_.mirror(home, side)]->drop_copy(line_no);
    }

private:
    L2Partitions sides_;
    std::vector<L2SideIf*> slices_;
};

}  // namespace dcusim
