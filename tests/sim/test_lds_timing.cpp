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
