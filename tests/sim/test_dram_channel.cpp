// One DRAM channel and its controller alone, fed bursts directly (no address map, no front
// end), with refresh off and the default timings (DramParams: tRCD 12, tCL 17, tRP 14, tCCD_L 3,
// tBURST 2 memory cycles), by hand. A run's end is the end of its last burst's data.
#include <catch2/catch.hpp>
#include <systemc>

#include <vector>

#include "models/dram/dram_channel.h"

using namespace dcusim;

namespace {

struct Sink : DramBurstSink {
    std::vector<Cycle> end = std::vector<Cycle>(4, 0);
    void run_done(const DramBurst& b, Cycle e) override { end[b.parent] = e; }
};

DramBurst burst(uint64_t row, Cycle arrival, uint64_t seq, uint32_t parent, unsigned count = 1) {
    DramBurst b;
    b.row = row;
    b.arrival = arrival;
    b.seq = seq;
    b.count = count;
    b.parent = parent;
    b.bank = 0;
    return b;
}

DramParams no_refresh() {
    DramParams p;
    p.t.REFI = 0;
    return p;
}

}  // namespace

TEST_CASE("DRAM channel: a row miss, a row hit and a row conflict", "[dram]") {
    static Clock mclk(1000);
    Sink sink;
    auto* ch = new DramChannel("channel", 0, no_refresh(), mclk, &sink);
    ch->enqueue(burst(0, 0, 0, 0));    // closed bank: ACT 0, RD 12, data 29-31
    ch->enqueue(burst(0, 100, 1, 1));  // the open row: RD 100, data until 119
    ch->enqueue(burst(1, 200, 2, 2));  // another row: PRE 200, ACT 214, RD 226, data until 245
    sc_core::sc_start();
    CHECK(sink.end[0] == 31);
    CHECK(sink.end[1] == 119);
    CHECK(sink.end[2] == 245);
    const DramChannelStats& s = ch->stats();
    CHECK(s.reads == 3);
    CHECK(s.row_misses == 1);
    CHECK(s.row_hits == 1);
    CHECK(s.row_conflicts == 1);
    CHECK(s.activates == 2);
    CHECK(s.precharges == 1);
}

TEST_CASE("DRAM channel: a run of four bursts to one row goes back to back", "[dram]") {
    static Clock mclk(1000);
    Sink sink;
    auto* ch = new DramChannel("channel", 0, no_refresh(), mclk, &sink);
    ch->enqueue(burst(0, 0, 0, 0, 4));  // ACT 0; RD 12, 15, 18, 21 (tCCD_L); data until 21 + 17 + 2
    sc_core::sc_start();
    CHECK(sink.end[0] == 40);
    CHECK(ch->stats().reads == 4);
    CHECK(ch->stats().row_misses == 1);
    CHECK(ch->stats().row_hits == 3);
}

TEST_CASE("DRAM channel: a younger burst of another bank group goes before one its group holds back", "[dram]") {
    static Clock mclk(1000);
    Sink sink;
    auto* ch = new DramChannel("channel", 0, no_refresh(), mclk, &sink);
    DramBurst a = burst(0, 0, 0, 0, 3);  // bank 0, group 0: ACT 0; RD 12, 15 (tCCD_L)
    DramBurst b = burst(0, 0, 3, 1);     // bank 4, group 1: ACT 4 (tRRD_S), its RD allowed from 16 (tRCD)
    b.bank = 4;
    ch->enqueue(a);
    ch->enqueue(b);
    // After a's RD at 15 its group holds its last burst to 18, while the channel allows a RD at 17
    // (tCCD_S): b, younger, goes at 17 (data until 17 + 17 + 2), then a's last at 19 (tCCD_S again).
    sc_core::sc_start();
    CHECK(sink.end[1] == 36);
    CHECK(sink.end[0] == 38);
    CHECK(ch->stats().reads == 4);
    CHECK(ch->stats().activates == 2);
    CHECK(ch->stats().row_hits == 2);
}
