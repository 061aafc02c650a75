// The DRAM controller's timing checker and refresh manager alone, no
// scheduler and no SystemC, with the default timings of DramParams (memory
// cycles: tRCD 12, tRCDWR 6, tRAS 28, tRC 42, tRP 14, tCL 17, tWL 7, tBURST 2,
// tCCD_S 2, tCCD_L 3, tRRD_S 4, tRRD_L 6, tFAW 16, tWR 16, tWTR 8, tRTP 4,
// tRFC 220, tREFI 3900; 4 bank groups of 4 banks), by hand.
#include <catch2/catch.hpp>

#include "models/dram/refresh.h"
#include "models/dram/timing_checker.h"

using namespace dcusim;

namespace {
Cycle bound(const DramTimingChecker& tc, Cycle now, DramCmd c) {
    Cycle any[kDramCmds];
    tc.channel_bounds(now, any);
    return any[unsigned(c)];
}
}  // namespace

TEST_CASE("DRAM timing: an ACT bounds its bank, its group and the channel", "[dram]") {
    DramParams p;
    DramTimingChecker tc(p);
    tc.act(0, 7, 0);
    CHECK(tc.bank(0).open);
    CHECK(tc.bank(0).row == 7);
    CHECK(tc.bank_at(0, DramCmd::Rd) == 12);   // tRCD
    CHECK(tc.bank_at(0, DramCmd::Wr) == 6);    // tRCDWR
    CHECK(tc.bank_at(0, DramCmd::Pre) == 28);  // tRAS
    CHECK(tc.bank_at(0, DramCmd::Act) == 42);  // tRC
    CHECK(tc.group_at(0, DramCmd::Act) == 6);  // tRRD_L, same group
    CHECK(tc.group_at(1, DramCmd::Act) == 0);
    CHECK(bound(tc, 0, DramCmd::Act) == 4);    // tRRD_S, any group
    CHECK(bound(tc, 0, DramCmd::Pre) == 1);    // one command a cycle
}

TEST_CASE("DRAM timing: a fifth ACT waits for the four-activate window", "[dram]") {
    DramParams p;
    p.t.FAW = 20;  // wider than 4 x tRRD_S, so that the window binds
    DramTimingChecker tc(p);
    for (uint32_t i = 0; i < 3; ++i) tc.act(i * 4, 0, Cycle(i) * 4);  // one bank per group, tRRD_S apart
    CHECK(bound(tc, 8, DramCmd::Act) == 12);  // three ACTs: tRRD_S only
    tc.act(12, 0, 12);
    CHECK(bound(tc, 12, DramCmd::Act) == 20);  // the first of the last four (0) + tFAW, past tRRD_S (16)
    tc.act(1, 0, 20);
    CHECK(bound(tc, 20, DramCmd::Act) == 24);  // the window now starts at 4
}

TEST_CASE("DRAM timing: read, write and precharge turnarounds", "[dram]") {
    DramParams p;
    DramTimingChecker tc(p);
    tc.act(0, 0, 0);
    CHECK(tc.rd(0, 20) == 39);                  // data ends at 20 + tCL + tBURST
    CHECK(tc.group_at(0, DramCmd::Rd) == 23);   // tCCD_L
    CHECK(bound(tc, 21, DramCmd::Rd) == 22);    // tCCD_S, another group
    CHECK(bound(tc, 21, DramCmd::Wr) == 34);    // the bus turns: 39 + 2 - tWL
    CHECK(tc.wr(0, 34) == 43);                  // 34 + tWL + tBURST
    CHECK(bound(tc, 35, DramCmd::Rd) == 51);    // 43 + tWTR
    CHECK(tc.bank_at(0, DramCmd::Pre) == 59);   // 43 + tWR, past tRAS (28) and the read's tRTP (24)
    tc.pre(0, 59);
    CHECK_FALSE(tc.bank(0).open);
    CHECK(tc.bank_at(0, DramCmd::Act) == 73);   // 59 + tRP, past tRC (42)
}

TEST_CASE("DRAM refresh: PRE the open banks, then REF and idle refreshes all at once", "[dram]") {
    DramParams p;
    p.channels = 2;
    DramTimingChecker tc(p);
    DramRefresh second(p.t, 1, p.channels);
    CHECK(second.next() == 3900 + 3900 / 2);  // the channels refresh in turn
    DramRefresh ref(p.t, 0, p.channels);
    CHECK_FALSE(ref.due(3899));
    CHECK(ref.due(3900));
    tc.act(5, 0, 3890);
    DramChoice c = ref.step(tc);
    CHECK(c.cmd == DramCmd::Pre);
    CHECK(c.bank == 5);
    CHECK(c.at == 3918);  // 3890 + tRAS
    tc.pre(5, 3918);
    c = ref.step(tc);
    CHECK(c.cmd == DramCmd::Ref);
    CHECK(c.at == 3932);  // 3918 + tRP, past tRC (3932)
    tc.ref(3932);
    ref.issued();
    CHECK(ref.next() == 7800);
    CHECK(tc.bank_at(0, DramCmd::Act) == 3932 + 220);  // tRFC
    // Idle from here to 20000: refreshes due at 7800, 11700, 15600, 19500.
    tc.act(2, 1, 4200);
    uint32_t closed = 0;
    CHECK(ref.catch_up(20000, tc, closed) == 4);
    CHECK(closed == 1);
    CHECK(ref.next() == 23400);
    CHECK_FALSE(tc.bank(2).open);
    CHECK(tc.bank_at(2, DramCmd::Act) == 19500 + 220);  // the last one at its due cycle
    CHECK(ref.catch_up(20000, tc, closed) == 0);
}
