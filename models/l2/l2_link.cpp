#include "l2_link.h"

#include <algorithm>
#include <cmath>

#include "../common/tick_slot.h"

namespace dcusim {

Cycle L2Link::cross(uint32_t from, uint32_t to, Cycle ready, uint32_t sectors) {
    Cycle& free = free_[size_t(from) * sides_.count + to];
    TickSlot::hold(free, ready, Cycle(std::ceil(double(sectors) * TickSlot::kPerCycle / sides_.link_sectors_per_cycle)));
    return TickSlot::cycle_at(free);
}

void L2Link::to_home(MemRequest& req) {
    if (sides_.link_sectors_per_cycle <= 0) return slices_[req.home]->mem_request(req);
    const uint32_t copy = sides_.side_of_cu(req.source), home = sides_.side_of_channel(req.home);
    if (req.op == trace::Op::Load) {  // the data comes back: the answer goes through the link
        const uint32_t h = hops_.acquire();
        hops_[h] = {req.reply_to, req.tag};
        req.reply_to = this;
        req.tag = h;
    } else {  // a store's data goes to the home, which takes it once it is across
        req.issue = cross(copy, home, std::max(clk_.now(), req.issue), sectors_of(req));
    }
    slices_[req.home]->mem_request(req);
}

void L2Link::mem_response(MemRequest& req) {
    const uint32_t h = uint32_t(req.tag);
    const Hop hop = hops_[h];
    hops_.release(h);
    req.reply_to = hop.reply_to;
    req.tag = hop.tag;
    const Cycle across = cross(sides_.side_of_channel(req.home), sides_.side_of_cu(req.source), clk_.now(), sectors_of(req));
    responses_.deliver(req, across);
}

}  // namespace dcusim
