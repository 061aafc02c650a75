// The L2 slice's read path alone, between a mock requester and a mock DRAM that answers 100
// cycles after a fetch leaves, by hand. One slice, 128-byte lines of four 32-byte sectors, a
// lookup a cycle, 100 cycles from a hit's lookup (or its line's last fill) to data back. A miss
// takes an MSHR for its line and fetches its missing sectors; a later miss to the same line
// fetches only sectors not yet on their way, and every target of the line is answered when the
// line's last fetch is back.
#include <catch2/catch.hpp>
#include <systemc>

#include <vector>

#include "mocks.h"
#include "models/l2/l2_slice.h"

using namespace dcusim;
using dcusim::test::FixedMemory;

namespace {

struct Load {
    Cycle at;
    uint64_t addr;
    uint32_t size;
};

// Sends each load at its cycle and records when each is answered.
struct L1s : sc_core::sc_module, MemResponder {
    sc_core::sc_port<MemTargetIf> l2;
    const Clock& clk;
    std::vector<Load> script;
    std::vector<MemRequest> reqs;
    std::vector<Cycle> answered;
    L1s(sc_core::sc_module_name n, const Clock& c, std::vector<Load> s)
        : sc_module(n), clk(c), script(std::move(s)), reqs(script.size()), answered(script.size(), 0) {
        SC_HAS_PROCESS(L1s);
        SC_THREAD(drive);
    }
    void drive() {
        for (size_t i = 0; i < script.size(); ++i) {
            if (script[i].at > clk.now()) wait(clk.until(script[i].at));
            MemRequest& r = reqs[i];
            r.addr = script[i].addr;
            r.size = script[i].size;
            r.issue = clk.now();
            r.reply_to = this;
            r.tag = i;
            l2->mem_request(r);
        }
    }
    void mem_response(MemRequest& r) override { answered[r.tag] = clk.now(); }
};

struct Bench {
    L2Slice* slice;
    FixedMemory* dram;
    L1s* l1s;
    Bench(const Clock& clk, uint32_t fetch_sectors, std::vector<Load> loads) {
        L2Params p;
        p.geometry = {16384, 128, 4};
        p.sector_bytes = 32;
        p.hit_latency = 100;
        p.fetch_sectors = fetch_sectors;
        slice = new L2Slice("l2", p, clk);
        dram = new FixedMemory("dram", clk, 100);
        slice->dram(*dram);
        l1s = new L1s("l1s", clk, std::move(loads));
        l1s->l2(*slice);
    }
};

}  // namespace

TEST_CASE("L2 read path: a second miss to a line in flight fetches its own sectors", "[l2]") {
    static Clock clk(1000);
    // Cycle 0: sectors 0-1 of line 0; cycle 1: its sector 2; cycle 300: its sector 0 again.
    Bench b(clk, 1, {{0, 0, 64}, {1, 64, 32}, {300, 0, 32}});
    sc_core::sc_start();
    // Fetches of sectors 0-1 (at 0) and of sector 2 (at 1) are back at 100 and 101; both loads
    // are answered 100 after the line's last fill. The third load hits: 300 + 100.
    CHECK(b.dram->issued == std::vector<Cycle>{0, 1});
    CHECK(b.l1s->answered == std::vector<Cycle>{201, 201, 400});
    const L2Stats& s = b.slice->stats();
    CHECK(s.requests == 3);
    CHECK(s.misses == 2);
    CHECK(s.hits == 1);
    CHECK(s.fetches == 2);
    CHECK(s.mshr_merges == 0);
    CHECK(s.sectors == 2 + 1 + 1);
    CHECK(s.sector_hits == 1);
    CHECK(s.reads == 3);
    CHECK(s.read_latency_sum == 201 + 200 + 100);
}

TEST_CASE("L2 read path: whole-line fetches make the second miss a merge", "[l2]") {
    static Clock clk(1000);
    // l2.fetch_sectors 4: the first miss fetches all of line 0, so sector 2 is already on its way.
    Bench b(clk, 4, {{0, 0, 32}, {1, 64, 32}});
    sc_core::sc_start();
    CHECK(b.dram->issued == std::vector<Cycle>{0});
    CHECK(b.l1s->answered == std::vector<Cycle>{200, 200});
    const L2Stats& s = b.slice->stats();
    CHECK(s.fetches == 1);
    CHECK(s.mshr_merges == 1);
    CHECK(s.misses == 2);
    CHECK(s.sector_hits == 1);  // sector 2 counts as a hit: on its way
}
