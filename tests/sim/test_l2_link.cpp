// The link between the L2 sides alone, between mock slices: it routes a
// copy's request to the line's home and drops the copies the other sides
// hold, by partitions.h's mirror rule (channel mod channels-per-side, on each side), by hand.
#include <catch2/catch.hpp>
#include <systemc>

#include <vector>

#include "models/l2/l2_link.h"

using namespace dcusim;

namespace {

struct MockSlice : L2SideIf {
    std::vector<uint64_t> requests, drops;  // addresses asked, lines dropped
    void mem_request(MemRequest& r) override { requests.push_back(r.addr); }
    void drop_copy(uint64_t line_no) override { drops.push_back(line_no); }
};

struct Sides {
    std::vector<MockSlice> slices;
    Clock clk;
    L2Link* link;
    Sides(uint32_t count, uint32_t channels) : slices(channels) {
        L2Partitions p;
        p.count = count;
        p.channels = channels;
        p.replicate = true;
        link = new L2Link(sc_core::sc_gen_unique_name("link"), p, clk);
        std::vector<L2SideIf*> v;
        for (auto& s : slices) v.push_back(&s);
        link->attach(v);
    }
    std::vector<uint32_t> dropped_at() const {
        std::vector<uint32_t> out;
        for (uint32_t c = 0; c < slices.size(); ++c)
            if (!slices[c].drops.empty()) out.push_back(c);
        return out;
    }
};

}  // namespace

TEST_CASE("L2 link: a copy's request goes to the line's home", "[l2]") {
    Sides s(2, 4);
    MemRequest r;
    r.addr = 0x1280;
    r.home = 2;
    r.link = true;
    s.link->to_home(r);
    CHECK(s.slices[2].requests == std::vector<uint64_t>{0x1280});
    CHECK(s.slices[0].requests.empty());
}

TEST_CASE("L2 link: a write at home drops the copies of the other sides", "[l2]") {
    Sides two(2, 4);  // channels 0-1 on side 0, 2-3 on side 1
    two.link->drop_copies(1, 77, 2);  // an atomic at home 1 (side 0): side 1's copy, in channel 1 + 2
    CHECK(two.dropped_at() == std::vector<uint32_t>{3});
    CHECK(two.slices[3].drops == std::vector<uint64_t>{77});
    Sides none(2, 4);
    none.link->drop_copies(1, 77, 1);  // a store from side 1: its own copy stays (written through)
    CHECK(none.dropped_at().empty());
    Sides four(4, 8);  // two channels a side
    four.link->drop_copies(5, 9, 0);  // home 5 on side 2, a store from side 0: sides 1 and 3
    CHECK(four.dropped_at() == std::vector<uint32_t>{3, 7});
}
