// Acceptance 5: a wave32 trace on the wave64 preset has half as many LDS
// instructions, and a wave64 trace on a wave32 preset twice as many.
#include <catch2/catch.hpp>

#include "helpers.h"

using namespace dcusim::test;

namespace {
std::string wave32_trace() {
    std::string t = "dcusim-trace 1\nwave_size 32\nkernel k grid 2 1 1 block 128 1 1\n";
    for (int b = 0; b < 2; ++b)
        for (int w = 0; w < 4; ++w)
            t += "wave " + std::to_string(b) + " " + std::to_string(w) + "\nld lds 4 0x10 all affine " +
                 std::to_string(w * 128) + " 4\nbar 0x18\nst lds 4 0x20 all affine 0 128\n";
    return t + "end\n";
}
}  // namespace

TEST_CASE("wave32 trace on the wave64 preset", "[sim][regroup]") {
    auto r = run_text(wave32_trace());
    CHECK(stat(r, "waves") == 4);             // 2 blocks x 2 waves of 64
    CHECK(stat(r, "lds.instructions") == 8);  // 16 wave32 instructions pair up
    CHECK(stat(r, "barriers") == 4);
    // the stride-128 store: 64 lanes in 2 groups of 32 on bank 0
    CHECK(stat(r, "lds.bank_conflict_cycles") == 4 * 62);
}

TEST_CASE("wave32 trace on a wave32 preset is replayed as is", "[sim][regroup]") {
    auto r = run_text(wave32_trace(), {{"cu.wave_size", "32"}});
    CHECK(stat(r, "waves") == 8);
    CHECK(stat(r, "lds.instructions") == 16);
    CHECK(stat(r, "lds.bank_conflict_cycles") == 8 * 31);
}

TEST_CASE("wave64 trace on a wave32 preset", "[sim][regroup]") {
    auto r = run_text(one_wave_trace(64, 64, "ld lds 4 0x10 all affine 0 4\nst lds 4 0x20 0x1 affine 0 0"),
                      {{"cu.wave_size", "32"}});
    CHECK(stat(r, "waves") == 2);
    CHECK(stat(r, "lds.instructions") == 3);  // the load splits, the 1-lane store stays in lanes 0-31
}
