// Constant cache through the platform, default preset: hit latency 16, one
// request per cycle, fills from the fixed-latency memory (mem.model fixed, 500 cycles).
#include <catch2/catch.hpp>

#include "helpers.h"

using namespace dcusim::test;

namespace {
// A uniform load (misses, fills the line), a wait, then 4 distinct addresses in that line.
const std::string kTrace = one_wave_trace(64, 64,
                                          "ld const 4 0x10 all affine 0x100 0\n"
                                          "wait\n"
                                          "ld const 4 0x18 all list " +
                                              lanes(64, [](unsigned i) { return 0x100 + (i % 4) * 4; }));
}  // namespace

TEST_CASE("one address is one broadcast request", "[sim][const]") {
    auto r = run_text(one_wave_trace(64, 64, "ld const 4 0x10 all affine 0x100 0"), {{"mem.model", "fixed"}});
    CHECK(stat(r, "const.instructions") == 1);
    CHECK(stat(r, "const.requests") == 1);
    CHECK(stat(r, "const.misses") == 1);
    CHECK(stat(r, "const.fills") == 1);
    CHECK(stat(r, "cycles") == 516);  // fill 500 + hit latency 16
}

TEST_CASE("serialize: 4 distinct addresses are 4 requests in turn", "[sim][const]") {
    auto r = run_text(kTrace, {{"const.divergent", "serialize"}, {"mem.model", "fixed"}});
    CHECK(stat(r, "const.instructions") == 2);
    CHECK(stat(r, "const.requests") == 5);
    CHECK(stat(r, "const.hits") == 4);
    CHECK(stat(r, "const.misses") == 1);
    CHECK(stat(r, "const.serialization_cycles") == 3);
    CHECK(stat(r, "const.vector_instructions") == 0);
    // second instruction at 516: requests at 516..519, the last back at 519 + 16
    CHECK(stat(r, "cycles") == 535);
}

TEST_CASE("const.replay_latency delays each further request's data, not the port", "[sim][const]") {
    auto r = run_text(kTrace, {{"const.divergent", "serialize"}, {"mem.model", "fixed"}, {"const.replay_latency", "9"}});
    CHECK(stat(r, "const.serialization_cycles") == 3);
    // second instruction at 516: requests at 516..519, the last back at 519 + 16 + 3 x 9
    CHECK(stat(r, "cycles") == 562);
}

TEST_CASE("vector: a divergent constant load takes the vector-memory path", "[sim][const]") {
    auto r = run_text(kTrace, {{"const.divergent", "vector"}, {"mem.model", "fixed"}});
    CHECK(stat(r, "const.instructions") == 2);
    CHECK(stat(r, "const.requests") == 1);
    CHECK(stat(r, "const.vector_instructions") == 1);
    CHECK(stat(r, "gmem.wave_requests") == 1);
    CHECK(stat(r, "cycles") == 516 + 500);
}

TEST_CASE("misses to a line being filled merge in its MSHR", "[sim][const]") {
    auto r = run_text(one_wave_trace(64, 64, "ld const 4 0x10 all list " + lanes(64, [](unsigned i) { return 0x100 + (i % 4) * 4; })),
                      {{"const.divergent", "serialize"}, {"mem.model", "fixed"}});
    CHECK(stat(r, "const.requests") == 4);
    CHECK(stat(r, "const.misses") == 4);
    CHECK(stat(r, "const.mshr_merges") == 3);
    CHECK(stat(r, "const.fills") == 1);
    CHECK(stat(r, "cycles") == 516);
}
