// The aperture (models/memory/aperture.h) alone, with mock memories on both sides, and its ranges.
#include <catch2/catch.hpp>
#include <systemc>

#include <vector>

#include "mocks.h"
#include "models/memory/aperture.h"

using namespace dcusim;
using dcusim::test::AnswerLog;
using dcusim::test::FixedMemory;

TEST_CASE("mapped ranges: an address is mapped inside a range, not at its end", "[host]") {
    MappedRanges r;
    CHECK_FALSE(r.contains(0));
    r.add(0x3000, 0x100);
    r.add(0x1000, 0x1000);
    CHECK(r.contains(0x1000));
    CHECK(r.contains(0x1fff));
    CHECK_FALSE(r.contains(0x2000));
    CHECK_FALSE(r.contains(0xfff));
    CHECK(r.contains(0x30ff));
    CHECK_FALSE(r.contains(0x3100));
}

// The aperture alone: with [0x1000, 0x2000) mapped, requests for 0x1000 and 0x1f80 go to the host side,
// 0x0f80 and 0x2000 (just outside) to the device side, each answered by its side's memory (10 and 500
// cycles after it leaves).
TEST_CASE("aperture: mapped addresses go to the host side, the rest to the device", "[host]") {
    static Clock clk(1000);
    MappedRanges mapped;
    mapped.add(0x1000, 0x1000);
    auto* ap = new Aperture("aperture", mapped);
    auto* device = new FixedMemory("device", clk, 10);
    auto* host = new FixedMemory("host", clk, 500);
    ap->device(*device);
    ap->host(*host);
    AnswerLog l2(clk, 4);
    std::vector<MemRequest> reqs(4);
    const uint64_t addrs[] = {0x1000, 0x0f80, 0x1f80, 0x2000};
    for (uint64_t i = 0; i < reqs.size(); ++i) {
        reqs[i].addr = addrs[i], reqs[i].size = 128, reqs[i].tag = i, reqs[i].reply_to = &l2;
        ap->mem_request(reqs[i]);
    }
    sc_core::sc_start();
    CHECK(l2.answered == std::vector<Cycle>{500, 10, 500, 10});
    CHECK(host->issued.size() == 2);
    CHECK(device->issued.size() == 2);
}
