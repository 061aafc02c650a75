// The crossbar alone, between a mock requester and mock L2 channels, by hand. Two channels,
// 256-byte interleave, 40 cycles each way, 64 bytes a cycle per link and direction. A message
// without data holds its link one cycle; one with data holds it ceil(bytes / 64) cycles; a
// request reaches its channel `latency` cycles after it leaves the link, an answer its
// requester `latency` cycles after it leaves the response link.
#include <catch2/catch.hpp>
#include <systemc>

#include <vector>

#include "mocks.h"
#include "models/noc/crossbar.h"

using namespace dcusim;
using dcusim::test::AnswerLog;

namespace {

// An L2 channel: records each request's arrival (its issue cycle) and answers every request
// at cycle `answer_at`.
struct Channel : sc_core::sc_module, MemTargetIf {
    Crossbar* up = nullptr;
    Cycle answer_at;
    const Clock& clk;
    std::vector<MemRequest*> got;
    std::vector<Cycle> arrival;
    Channel(sc_core::sc_module_name n, Cycle at, const Clock& c) : sc_module(n), answer_at(at), clk(c) {
        SC_HAS_PROCESS(Channel);
        SC_THREAD(answer);
    }
    void mem_request(MemRequest& r) override {
        got.push_back(&r);
        arrival.push_back(r.issue);
    }
    void answer() {
        wait(clk.until(answer_at));
        for (MemRequest* r : got)
            if (r->reply_to) up->mem_response(*r);
    }
};

MemRequest line(trace::Op op, uint64_t addr, uint32_t size, uint64_t tag, MemResponder* to) {
    MemRequest r;
    r.op = op;
    r.addr = addr;
    r.size = size;
    r.tag = tag;
    r.reply_to = to;
    return r;
}

}  // namespace

TEST_CASE("crossbar: link occupancy and latency each way, by hand", "[noc]") {
    static Clock clk(1000);
    NocParams p;
    p.channels = 2;
    p.interleave_bytes = 256;
    p.latency = 40;
    p.bytes_per_cycle = 64;
    auto* xbar = new Crossbar("xbar", p, clk);
    auto* ch0 = new Channel("ch0", 100, clk);
    auto* ch1 = new Channel("ch1", 100, clk);
    xbar->channels = {ch0, ch1};
    ch0->up = ch1->up = xbar;
    AnswerLog cu(clk, 4);
    // All leave at cycle 0: two loads to channel 0 (address 0 and 128), a load to channel 1
    // (address 256), then a 128-byte store to channel 1.
    std::vector<MemRequest> reqs = {line(trace::Op::Load, 0, 128, 0, &cu), line(trace::Op::Load, 128, 128, 1, &cu),
                                    line(trace::Op::Load, 256, 128, 2, &cu), line(trace::Op::Store, 384, 128, 3, &cu)};
    for (auto& r : reqs) xbar->mem_request(r);
    sc_core::sc_start();

    // Requests: channel 0's link carries load 0 in cycle 0 and load 1 in cycle 1 (queued one
    // cycle); channel 1's carries load 2 in cycle 0, then the store's 128 bytes in cycles 1-2.
    REQUIRE(ch0->arrival == std::vector<Cycle>{0 + 1 + 40, 1 + 1 + 40});
    REQUIRE(ch1->arrival == std::vector<Cycle>{0 + 1 + 40, 1 + 2 + 40});
    CHECK(reqs[0].home == 0);
    CHECK(reqs[2].home == 1);
    // Answers, all at cycle 100: channel 0's response link carries 128 bytes for load 0 in
    // cycles 100-101 and for load 1 in 102-103; channel 1's carries load 2's data in 100-101,
    // then the store's acknowledgement (no data) in cycle 102.
    CHECK(cu.answered == std::vector<Cycle>{102 + 40, 104 + 40, 102 + 40, 103 + 40});
    const NocStats& s = xbar->stats();
    CHECK(s.requests == 4);
    CHECK(s.request_bytes == 128);
    CHECK(s.response_bytes == 3 * 128);
    // Queued: load 1 and the store a cycle each on the way down, load 1 and the ack 2 cycles each up.
    CHECK(s.queue_cycles == 1 + 1 + 2 + 2);
}

TEST_CASE("crossbar: a fractional store rate keeps its link time in 1/1024 cycles", "[noc]") {
    static Clock clk(1000);
    NocParams p;
    p.channels = 1;
    p.latency = 40;
    p.store_bytes_per_cycle = 0.5;
    auto* xbar = new Crossbar("xbar", p, clk);
    auto* ch = new Channel("ch", 100, clk);
    xbar->channels = {ch};
    ch->up = xbar;
    AnswerLog cu(clk, 2);
    // A 4-byte store at half a byte a cycle holds the link 8 cycles (8,192 ticks); the load
    // after it, a command, one more (to tick 9,216: the end of cycle 8).
    std::vector<MemRequest> reqs = {line(trace::Op::Store, 0, 4, 0, &cu), line(trace::Op::Load, 64, 64, 1, &cu)};
    for (auto& r : reqs) xbar->mem_request(r);
    sc_core::sc_start();
    REQUIRE(ch->arrival == std::vector<Cycle>{8 + 40, 9 + 40});
    // Answers at 100 on the response link at its full 64 bytes a cycle: the ack in cycle 100,
    // the load's 64 bytes in cycle 101.
    CHECK(cu.answered == std::vector<Cycle>{101 + 40, 102 + 40});
    CHECK(xbar->stats().queue_cycles == 8 + 1);
}
