// The constant cache alone, between a mock CU and a mock memory that answers 100 cycles after a
// request leaves, by hand. 64-byte lines, a 16-cycle hit, one request a cycle through the port.
// With `serialize`, an instruction whose lanes read k distinct addresses is k requests, one a
// cycle; it completes when its last request's data is back (hit: issue + 16; miss: the fill's
// answer + 16).
#include <catch2/catch.hpp>
#include <systemc>

#include <utility>
#include <vector>

#include "helpers.h"
#include "mocks.h"
#include "models/constant/const_cache.h"

using namespace dcusim;
using dcusim::test::wave_of;
using Memory = dcusim::test::FixedMemory;

namespace {

// Issues each instruction of `wave` at its cycle and records when each completes.
struct Cu : sc_core::sc_module, MemResponder {
    sc_core::sc_port<WaveMemIf> cache;
    const Clock& clk;
    trace::WaveTrace wave;
    std::vector<Cycle> at;
    std::vector<MemRequest> reqs;
    std::vector<bool> taken;
    std::vector<Cycle> completed;
    Cu(sc_core::sc_module_name n, const Clock& c, trace::WaveTrace w, std::vector<Cycle> when)
        : sc_module(n), clk(c), wave(std::move(w)), at(std::move(when)), reqs(at.size()), completed(at.size(), 0) {
        SC_HAS_PROCESS(Cu);
        SC_THREAD(drive);
    }
    void drive() {
        for (size_t i = 0; i < at.size(); ++i) {
            if (at[i] > clk.now()) wait(clk.until(at[i]));
            MemRequest& r = reqs[i];
            r.instr = &wave.instrs[i];
            r.wave = &wave;
            r.issue = clk.now();
            r.reply_to = this;
            r.tag = i;
            const Cycle done = cache->wave_request(r);
            taken.push_back(done != WaveMemIf::kNotHere);
            if (done != WaveMemIf::kNotHere && done != WaveMemIf::kAnswerLater) completed[i] = done;  // every line hit
        }
    }
    void mem_response(MemRequest& r) override { completed[r.tag] = r.done; }
};

ConstParams params(ConstDivergence d) {
    ConstParams p;
    p.geometry = {4096, 64, 4};
    p.latency = 16;
    p.request_cycles = 1;
    p.divergent = d;
    return p;
}

}  // namespace

TEST_CASE("constant cache: serialized misses, then the same addresses hit", "[const]") {
    static Clock clk(1000);
    auto* cc = new ConstantCache("const", params(ConstDivergence::Serialize));
    auto* mem = new Memory("mem", clk, 100);
    cc->mem(*mem);
    // Four lanes, four lines: at cycle 0 (all miss) and again at cycle 200 (all hit).
    const std::string four = "ld const 4 0 0xf list 0x0 0x40 0x80 0xc0";
    auto* cu = new Cu("cu", clk, wave_of({four, four}), {0, 200});
    cu->cache(*cc);
    sc_core::sc_start();
    REQUIRE(cu->taken == std::vector<bool>{true, true});
    // Misses: the fills leave at cycles 0-3, come back at 100-103, and the last one's data is the
    // wave's 16 cycles later. Hits: requests at 200-203, the last one's data at 203 + 16.
    CHECK(mem->issued == std::vector<Cycle>{0, 1, 2, 3});
    CHECK(cu->completed == std::vector<Cycle>{103 + 16, 203 + 16});
    const ConstStats& s = cc->stats();
    CHECK(s.instructions == 2);
    CHECK(s.requests == 8);
    CHECK(s.misses == 4);
    CHECK(s.hits == 4);
    CHECK(s.fills == 4);
    CHECK(s.serialization_cycles == 2 * 3);
    CHECK(s.queue_cycles == 0);
}

TEST_CASE("constant cache: a miss to a line in flight waits on its MSHR and the port queues", "[const]") {
    static Clock clk(1000);
    auto* cc = new ConstantCache("const", params(ConstDivergence::Serialize));
    auto* mem = new Memory("mem", clk, 100);
    cc->mem(*mem);
    // Cycle 0: two lanes, two lines (port busy in cycles 0 and 1). Cycle 1: a uniform load of the
    // second line's other word: it queues one cycle for the port, then merges with the fill.
    auto* cu = new Cu("cu", clk, wave_of({"ld const 4 0 0x3 list 0x0 0x40", "ld const 4 0 all affine 0x44 0"}), {0, 1});
    cu->cache(*cc);
    sc_core::sc_start();
    CHECK(mem->issued == std::vector<Cycle>{0, 1});
    // The second line's fill left at 1 and is back at 101: both instructions complete 16 later.
    CHECK(cu->completed == std::vector<Cycle>{101 + 16, 101 + 16});
    const ConstStats& s = cc->stats();
    CHECK(s.mshr_merges == 1);
    CHECK(s.fills == 2);
    CHECK(s.queue_cycles == 1);
    CHECK(s.serialization_cycles == 1);
}

TEST_CASE("constant cache: with divergent = vector only uniform loads stay and others go back to the CU", "[const]") {
    static Clock clk(1000);
    auto* cc = new ConstantCache("const", params(ConstDivergence::Vector));
    auto* mem = new Memory("mem", clk, 100);
    cc->mem(*mem);
    auto* cu = new Cu("cu", clk, wave_of({"ld const 4 0 0x3 list 0x0 0x40", "ld const 4 0 all affine 0x80 0"}), {0, 0});
    cu->cache(*cc);
    sc_core::sc_start();
    REQUIRE(cu->taken == std::vector<bool>{false, true});
    CHECK(mem->issued == std::vector<Cycle>{0});  // the uniform load's fill only
    CHECK(cu->completed[1] == 100 + 16);
    CHECK(cc->stats().vector_instructions == 1);
    CHECK(cc->stats().requests == 1);
}
