// The vector L1 alone, between a mock CU and a mock L2 that answers 100 cycles after a request
// leaves, by hand. 64-byte lines of one sector, 16 KiB 4-way, a lookup a cycle, 120 cycles from a
// hit's lookup (or a fill's return) to data back. A 64-lane load of consecutive 4-byte words is
// 256 bytes: four line lookups, in cycles t..t+3.
#include <catch2/catch.hpp>
#include <systemc>

#include <utility>
#include <vector>

#include "helpers.h"
#include "mocks.h"
#include "models/l1/vector_l1.h"

using namespace dcusim;
using dcusim::test::FixedMemory;
using dcusim::test::wave_of;

namespace {

// Sends instruction i of `wave` at cycle at[i] and records when each is answered.
struct Cu : sc_core::sc_module, MemResponder {
    sc_core::sc_port<WaveMemIf> l1;
    const Clock& clk;
    trace::WaveTrace wave;
    std::vector<Cycle> at;
    std::vector<MemRequest> reqs;
    std::vector<Cycle> answered;
    Cu(sc_core::sc_module_name n, const Clock& c, trace::WaveTrace w, std::vector<Cycle> when)
        : sc_module(n), clk(c), wave(std::move(w)), at(std::move(when)), reqs(at.size()), answered(at.size(), 0) {
        SC_HAS_PROCESS(Cu);
        SC_THREAD(drive);
    }
    void drive() {
        for (size_t i = 0; i < at.size(); ++i) {
            if (at[i] > clk.now()) wait(clk.until(at[i]));
            MemRequest& r = reqs[i];
            r.instr = &wave.instrs[i];
            r.wave = &wave;
            r.op = r.instr->op;
            r.space = r.instr->space;
            r.issue = clk.now();
            r.reply_to = this;
            r.tag = i;
            l1->wave_request(r);
        }
    }
    void mem_response(MemRequest& r) override { answered[r.tag] = clk.now(); }
};

L1Params params(uint32_t mshrs, uint32_t sector_bytes = 64, bool write_allocate = false) {
    L1Params p;
    p.geometry = {16384, 64, 4};
    p.sector_bytes = sector_bytes;
    p.global_write_allocate = write_allocate;
    p.hit_latency = 120;
    p.lookups_per_cycle = 1;
    p.mshrs = mshrs;
    return p;
}

struct Bench {
    VectorL1* l1;
    FixedMemory* l2;
    Cu* cu;
    Bench(const Clock& clk, uint32_t mshrs, const std::vector<std::string>& instrs, std::vector<Cycle> at)
        : Bench(clk, params(mshrs), instrs, std::move(at)) {}
    Bench(const Clock& clk, const L1Params& p, const std::vector<std::string>& instrs, std::vector<Cycle> at) {
        l1 = new VectorL1("l1", p, clk);
        l2 = new FixedMemory("l2", clk, 100);
        l1->down(*l2);
        cu = new Cu("cu", clk, wave_of(instrs), std::move(at));
        cu->l1(*l1);
    }
};

const char* kLoad = "ld global 4 0 all affine 0x1000 4";
const char* kStore = "st global 4 0 all affine 0x1000 4";

}  // namespace

TEST_CASE("vector L1: four misses, then the same lines hit", "[l1]") {
    static Clock clk(1000);
    Bench b(clk, 64, {kLoad, kLoad}, {0, 300});
    sc_core::sc_start();
    // Misses: lookups and fills in cycles 0-3, fills back at 100-103, data 120 later. Hits: lookups
    // in 300-303, the last one's data at 303 + 120.
    CHECK(b.l2->issued == std::vector<Cycle>{0, 1, 2, 3});
    CHECK(b.cu->answered == std::vector<Cycle>{103 + 120, 303 + 120});
    const L1Stats& s = b.l1->stats();
    CHECK(s.requests == 8);
    CHECK(s.misses == 4);
    CHECK(s.hits == 4);
    CHECK(s.fetches == 4);
    CHECK(s.load_instructions == 2);
    CHECK(s.load_latency_sum == 223 + 123);
    CHECK(s.mshr_stall_cycles == 0);
}

TEST_CASE("vector L1: with one MSHR each miss waits for the fill before it", "[l1]") {
    static Clock clk(1000);
    Bench b(clk, 1, {kLoad}, {0});
    sc_core::sc_start();
    // Line 0 takes the MSHR at 0; line 1 stalls the port from cycle 1 until line 0's fill is back
    // at 100, then takes it; line 2 stalls from 101 to 200, line 3 from 201 to 300.
    CHECK(b.l2->issued == std::vector<Cycle>{0, 100, 200, 300});
    CHECK(b.cu->answered == std::vector<Cycle>{400 + 120});
    const L1Stats& s = b.l1->stats();
    CHECK(s.mshr_stall_cycles == 3 * 99);
    CHECK(s.misses == 4);
    CHECK(s.requests == 4);  // a stalled lookup counts once, when it goes on
}

TEST_CASE("vector L1: stores are written through and allocate no line", "[l1]") {
    static Clock clk(1000);
    Bench b(clk, 64, {kStore, kLoad}, {0, 200});
    sc_core::sc_start();
    // The store: four writes in cycles 0-3, answered when the last is acknowledged (103). The load
    // after it misses on all four lines: nothing was allocated.
    CHECK(b.l2->ops == std::vector<trace::Op>{trace::Op::Store, trace::Op::Store, trace::Op::Store, trace::Op::Store,
                                             trace::Op::Load, trace::Op::Load, trace::Op::Load, trace::Op::Load});
    CHECK(b.cu->answered == std::vector<Cycle>{103, 303 + 120});
    const L1Stats& s = b.l1->stats();
    CHECK(s.stores == 4);
    CHECK(s.misses == 4);
    CHECK(s.hits == 0);
    CHECK(s.store_sectors == 4);
    CHECK(s.store_sector_hits == 0);  // no line was present
    CHECK(s.sector_hits == 0);
}

// 16-byte sectors, four a line: lanes 0-3 load sector 0 of line 0x1000 (a miss, filled at 100); at 300
// lanes 4-7 store its sector 1, never loaded, and lanes 0-3 of line 0x2000 store its sector 0, absent.
// The H200 counts the first store's sector a hit: its line is present (validation/results/h200-l1storehits,
// load_half_store), whichever sectors it holds.
TEST_CASE("vector L1: a store's sectors hit when its line is present, whichever sectors it holds", "[l1]") {
    static Clock clk(1000);
    Bench b(clk, params(64, 16), {"ld global 4 0 0xf affine 0x1000 4", "st global 4 0 0xf0 affine 0x1000 4",
                                  "st global 4 0 0xf affine 0x2000 4"},
            {0, 300, 300});
    sc_core::sc_start();
    CHECK(b.cu->answered == std::vector<Cycle>{100 + 120, 400, 401});  // the stores' writes leave at 300 and 301
    const L1Stats& s = b.l1->stats();
    CHECK(s.sectors == 3);
    CHECK(s.store_sectors == 2);
    CHECK(s.store_sector_hits == 1);
    CHECK(s.sector_hits == 1);  // the load's sector missed
}

// With global_write_allocate a store leaves its line: the same four lines stored again at 200 hit, and a
// load at 400 finds the sectors written whole valid (lookups 400-403, the last one's data at 403 + 120),
// with nothing fetched. Without it the second store misses as the first.
TEST_CASE("vector L1: with global_write_allocate a store leaves its lines for the next store and load", "[l1]") {
    static Clock clk(1000);
    Bench b(clk, params(64, 64, true), {kStore, kStore, kLoad}, {0, 200, 400});
    sc_core::sc_start();
    CHECK(b.l2->ops == std::vector<trace::Op>(8, trace::Op::Store));
    CHECK(b.cu->answered == std::vector<Cycle>{103, 303, 403 + 120});
    const L1Stats& s = b.l1->stats();
    CHECK(s.store_sectors == 8);
    CHECK(s.store_sector_hits == 4);
    CHECK(s.hits == 4);
    CHECK(s.fetches == 0);
    CHECK(s.sector_hits == 8);
}

TEST_CASE("vector L1: without global_write_allocate a store leaves no line for the next store", "[l1]") {
    static Clock clk(1000);
    Bench b(clk, params(64, 64, false), {kStore, kStore}, {0, 200});
    sc_core::sc_start();
    const L1Stats& s = b.l1->stats();
    CHECK(s.store_sectors == 8);
    CHECK(s.store_sector_hits == 0);
    CHECK(s.sector_hits == 0);
}
