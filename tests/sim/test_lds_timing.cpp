// LDS through the whole platform, default preset (wave64, 32 x 4-byte banks,
// issue 4 cycles, LDS latency 64). Each case is one simulation.
#include <catch2/catch.hpp>

#include "helpers.h"

using namespace dcusim::test;

TEST_CASE("acceptance: stride 128, 132 and one address on the default preset", "[sim][lds]") {
    std::string t = "dcusim-trace 1\nwave_size 64\n";
    for (const char* stride : {"128", "132", "0"})
        t += std::string("kernel s") + stride + " grid 1 1 1 block 64 1 1\nwave 0 0\nld lds 4 0x10 all affine 0 " + stride +
             "\nend\n";
    auto r = run_text(t);
    REQUIRE(r.kernels.size() == 3);
    CHECK(stat(r, "lds.cycles", 0) == 64);
    CHECK(stat(r, "lds.bank_conflict_cycles", 0) == 62);
    CHECK(stat(r, "lds.cycles", 1) == 2);
    CHECK(stat(r, "lds.bank_conflict_cycles", 1) == 0);
    CHECK(stat(r, "lds.cycles", 2) == 2);
    CHECK(stat(r, "lds.bank_conflict_cycles", 2) == 0);
    // issue at 0, the pipe serves 64 cycles, data back 64 later: the wave retires at 128
    CHECK(stat(r, "cycles", 0) == 128);
    CHECK(stat(r, "cycles", 1) == 66);
    CHECK(r.total.at("lds.bank_conflict_cycles") == 62);
    CHECK(r.total.at("lds.instructions") == 3);
}

TEST_CASE("16 banks at stride 128: 64 cycles, 60 conflict cycles", "[sim][lds]") {
    std::string body = "ld lds 4 0x10 all affine 0 128";
    std::string t = "dcusim-trace 1\nwave_size 64\nkernel a grid 1 1 1 block 64 1 1\nwave 0 0\n" + body + "\nend\n";
    auto r16 = run_text(t, {{"lds.banks", "16"}});
    CHECK(stat(r16, "lds.cycles") == 64);
    CHECK(stat(r16, "lds.bank_conflict_cycles") == 60);
}

TEST_CASE("64 banks at stride 128: 32 cycles, 31 conflict cycles", "[sim][lds]") {
    auto r = run_text(one_wave_trace(64, 64, "ld lds 4 0x10 all affine 0 128"), {{"lds.banks", "64"}});
    CHECK(stat(r, "lds.cycles") == 32);
    CHECK(stat(r, "lds.bank_conflict_cycles") == 31);
}

TEST_CASE("waves of one CU contend for the LDS pipe", "[sim][lds]") {
    // Two waves on two SIMDs issue at cycle 0; the second waits 64 cycles for the pipe.
    auto r = run_text("dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 128 1 1\n"
                      "wave 0 0\nld lds 4 0x10 all affine 0 128\nwave 0 1\nld lds 4 0x10 all affine 0 128\nend\n");
    CHECK(stat(r, "lds.queue_cycles") == 64);
    CHECK(stat(r, "cycles") == 192);  // 64 wait + 64 served + 64 latency
}

TEST_CASE("lds.replay_latency: each conflict cycle delays the data, not the pipe", "[sim][lds]") {
    // Stride 128 on the default preset: 64 pipe cycles, 62 of them conflict cycles
    // (two 32-lane groups of 32 each). With 2 cycles per replay the data is back
    // 64 + 64 + 62 x 2 = 252 cycles after issue; a second wave behind it still
    // waits only the 64 pipe cycles.
    auto r = run_text("dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 128 1 1\n"
                      "wave 0 0\nld lds 4 0x10 all affine 0 128\nwave 0 1\nld lds 4 0x10 all affine 0 128\nend\n",
                      {{"lds.replay_latency", "2"}});
    CHECK(stat(r, "lds.queue_cycles") == 64);
    CHECK(stat(r, "cycles") == 64 + 64 + 64 + 62 * 2);  // the second wave: wait, served, latency, replays
}

const char* const kEmptyLdsTrace = "dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 128 1 1\n"
                                  "wave 0 0\ncompute 3 lds 2\nld lds 4 0x10 all affine 0 4\n"
                                  "wave 0 1\nld lds 4 0x20 all affine 0 4\nend\n";

TEST_CASE("lds.empty_cycles: a wave's predicated-off LDS instructions delay another wave's access", "[sim][lds]") {
    // Two waves on two SIMDs at cycle 0, issue 4 cycles, LDS latency 64. Wave 0 issues 3 instructions,
    // 2 of them LDS with no lane on: with 20 cycles each they hold the pipe over [0, 40). Wave 1's load
    // (conflict-free, 2 groups) then waits 40, is served in [40, 42) and is back at 106. Wave 0's own
    // load, at 3 x 4 = 12, waits for 42, is served in [42, 44), back at 108: the kernel's end.
    // Without the empty slots: back at 66 and 12 + 2 + 64 = 78. (The empties are done at 84 and 104.)
    auto r = run_text(kEmptyLdsTrace, {{"lds.empty_cycles", "20"}});
    CHECK(stat(r, "cycles") == 108);
    CHECK(stat(r, "lds.queue_cycles") == 20 + 40 + 30);  // wave 0's second empty waits behind its first
    CHECK(stat(r, "lds.empty_instructions") == 2);
    CHECK(stat(r, "lds.empty_cycles") == 40);
    CHECK(stat(r, "lds.instructions") == 2);
    CHECK(stat(r, "lds.cycles") == 4);
}

TEST_CASE("lds.empty_cycles 0 (the default): predicated-off LDS instructions cost only their issue", "[sim][lds]") {
    // The trace above: wave 1's load is back at 0 + 2 + 64, wave 0's at 12 + 2 + 64 = 78.
    auto r = run_text(kEmptyLdsTrace);
    CHECK(stat(r, "cycles") == 78);
    CHECK(stat(r, "lds.queue_cycles") == 0);
    CHECK(stat(r, "lds.empty_instructions") == 2);
    CHECK(stat(r, "lds.empty_cycles") == 0);
}

// An empty LDS instruction holds its own wave as a full one does (the H200: one warp's loop takes as long
// with its LDS on or off, validation/results/h200-ldspredicated): it is in flight until lds.latency after
// its pipe slot, under cu.max_outstanding, and the wave's waits and its end wait for it.
TEST_CASE("lds.empty_cycles: an empty LDS instruction counts toward cu.max_outstanding", "[sim][lds]") {
    // One in flight at most: the first is served in [0, 20) and done at 84; the second waits for it,
    // is served in [84, 104) and done at 168, when the wave may end. Without the rule: 2 x 4 = 8.
    auto r = run_text("dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\nwave 0 0\ncompute 2 lds 2\nend\n",
                      {{"lds.empty_cycles", "20"}, {"cu.max_outstanding", "1"}});
    CHECK(stat(r, "cycles") == 168);
    CHECK(stat(r, "stall.outstanding_cycles") == 84);
    CHECK(stat(r, "lds.queue_cycles") == 0);
}

TEST_CASE("lds.empty_cycles: a wave's waits and its end wait for its empty LDS instructions", "[sim][lds]") {
    // Kernel a: served in [0, 20) and [20, 40), done at 84 and 104; the wave ends at 104, not 8.
    // Kernel b: the same, then a wait for both (from 8 to 104) and 1 instruction: 108.
    auto r = run_text("dcusim-trace 1\nwave_size 64\nkernel a grid 1 1 1 block 64 1 1\nwave 0 0\ncompute 2 lds 2\nend\n"
                      "kernel b grid 1 1 1 block 64 1 1\nwave 0 0\ncompute 2 lds 2\nwait\ncompute 1\nend\n",
                      {{"lds.empty_cycles", "20"}});
    REQUIRE(r.kernels.size() == 2);
    CHECK(stat(r, "cycles", 0) == 104);
    CHECK(stat(r, "cycles", 1) == 108);
    CHECK(stat(r, "stall.wait_cycles", 1) == 104 - 8);
}
