// Mapped host memory (models/host/mapped_memory.h) alone, and an L2 slice in front of it, by hand.
//
// The link: h2d 1000 MB/s and d2h 500 MB/s of payload in 64-byte packets carrying 16 bytes of
// overhead each, so 1250 and 625 MB/s raw; a read's data back 100 ns after its packets crossed; a
// 1 GHz clock (1 ns a cycle). A 128-byte read at cycle 0 is 2 packets, 160 bytes on the wire:
// 128 ns, answered at 128 + 100 = 228. A 64-byte read at cycle 10 waits for the link (free at 128),
// 1 packet of 80 bytes: 64 ns, answered at 128 + 64 + 100 = 292. A 128-byte write at cycle 0 takes
// the other direction: 160 bytes at 625 MB/s, 256 ns, posted: answered at 256.
#include <catch2/catch.hpp>
#include <systemc>

#include <vector>

#include "mocks.h"
#include "models/host/mapped_memory.h"
#include "models/l2/l2_slice.h"

using namespace dcusim;
using dcusim::test::AnswerLog;
using dcusim::test::FixedMemory;

namespace {

HostLinkParams link_1g() {
    HostLinkParams p;
    p.h2d_mbps = 1000, p.d2h_mbps = 500;
    p.max_payload_bytes = 64, p.tlp_overhead_bytes = 16;
    p.mapped_latency_ns = 100;
    return p;
}

}  // namespace

TEST_CASE("mapped memory: packets at the link's raw rate, one direction each way, reads pay the latency", "[host]") {
    static Clock clk(1000);
    auto* mem = new MappedMemory("mapped", link_1g(), clk);
    CHECK(mem->transfer_ps(128, true) == 128000);
    CHECK(mem->transfer_ps(64, true) == 64000);
    CHECK(mem->transfer_ps(128, false) == 256000);
    CHECK(mem->transfer_ps(65, true) == 77600);  // 2 packets: 65 + 32 = 97 bytes at 1250 MB/s
    AnswerLog host(clk, 3);
    std::vector<MemRequest> reqs(3);
    reqs[0].addr = 0x1000, reqs[0].size = 128;
    reqs[1].addr = 0x2000, reqs[1].size = 64, reqs[1].issue = 10;
    reqs[2].op = trace::Op::Store, reqs[2].addr = 0x3000, reqs[2].size = 128;
    for (uint64_t i = 0; i < reqs.size(); ++i) {
        reqs[i].tag = i;
        reqs[i].reply_to = &host;
        mem->mem_request(reqs[i]);
    }
    sc_core::sc_start();
    CHECK(host.answered == std::vector<Cycle>{228, 292, 256});
    const MappedMemoryStats& s = mem->stats();
    CHECK(s.reads == 2);
    CHECK(s.read_bytes == 192);
    CHECK(s.writes == 1);
    CHECK(s.write_bytes == 128);
    CHECK(s.read_latency_sum == 228 + (292 - 10));
}

// An L2 slice (hit latency 10) over a memory that answers 100 cycles after a request leaves, with
// [0x1000, 0x2000) mapped. A whole-line store to 0x1000 at cycle 0 is written through at once (a
// write below at cycle 0) and answered when that write is (100), its line kept clean: a load of it at
// cycle 200 hits (210), and nothing more goes below. A store to 0x8000, not mapped, sent at cycle 0 too,
// is looked up at cycle 1 (a lookup a cycle), answered at its hit (11), and stays dirty in the slice:
// nothing goes below for it.
TEST_CASE("L2 slice: stores to mapped memory are written through and answered once written", "[host][l2]") {
    static Clock clk(1000);
    L2Params p;
    p.geometry = {4096, 128, 4};
    p.hit_latency = 10;
    auto* l2 = new L2Slice("l2", p, clk);
    auto* below = new FixedMemory("below", clk, 100);
    l2->dram(*below);
    MappedRanges mapped;
    mapped.add(0x1000, 0x1000);
    l2->set_mapped(&mapped);
    AnswerLog cus(clk, 3);
    std::vector<MemRequest> reqs(3);
    reqs[0].op = trace::Op::Store, reqs[0].addr = 0x1000, reqs[0].size = 128;
    reqs[1].op = trace::Op::Store, reqs[1].addr = 0x8000, reqs[1].size = 128;
    reqs[2].addr = 0x1000, reqs[2].size = 128, reqs[2].issue = 200;
    for (uint64_t i = 0; i < reqs.size(); ++i) {
        reqs[i].tag = i;
        reqs[i].reply_to = &cus;
        l2->mem_request(reqs[i]);
    }
    sc_core::sc_start();
    CHECK(cus.answered == std::vector<Cycle>{100, 11, 210});
    CHECK(below->issued == std::vector<Cycle>{0});
    CHECK(below->ops == std::vector<trace::Op>{trace::Op::Store});
    CHECK(l2->stats().hits == 1);
    CHECK(l2->stats().writebacks == 0);
}
