// The fixed-latency memory (mem.model = fixed) alone: every request is answered `latency`
// cycles after it leaves its initiator, whatever else is in flight; a wave request counts its
// active lanes' bytes, a line request its size.
#include <catch2/catch.hpp>
#include <systemc>

#include <vector>

#include "helpers.h"
#include "mocks.h"
#include "models/memory/fixed_latency_memory.h"

using namespace dcusim;
using dcusim::test::AnswerLog;
using dcusim::test::wave_of;

TEST_CASE("fixed memory: answers latency cycles after issue, counts lanes and lines", "[memory]") {
    static Clock clk(1000);
    auto* mem = new FixedLatencyMemory("mem", FixedMemoryParams{500}, clk);
    AnswerLog cu(clk, 3);
    const auto w = wave_of({"ld global 8 0 0xff affine 0x1000 8"});
    std::vector<MemRequest> reqs(3);
    reqs[0].instr = &w.instrs[0], reqs[0].wave = &w;  // a wave instruction: 8 lanes of 8 bytes
    reqs[1].addr = 0x2000, reqs[1].size = 128;         // a line request leaving at cycle 7
    reqs[1].issue = 7;
    reqs[2].addr = 0x2080, reqs[2].size = 64, reqs[2].issue = 7;  // the same cycle: no queueing
    for (uint64_t i = 0; i < reqs.size(); ++i) {
        reqs[i].tag = i;
        reqs[i].reply_to = &cu;
        mem->mem_request(reqs[i]);
    }
    sc_core::sc_start();
    CHECK(cu.answered == std::vector<Cycle>{500, 507, 507});
    const FixedMemoryStats& s = mem->stats();
    CHECK(s.requests == 3);
    CHECK(s.wave_requests == 1);
    CHECK(s.line_requests == 2);
    CHECK(s.lane_accesses == 8);
    CHECK(s.bytes == 8 * 8 + 128 + 64);
}
