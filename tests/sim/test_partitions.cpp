// A partitioned L2 (l2.partitions, l2.far_latency): CUs and channels split
// into sides in index order; a miss for a line homed on the other side costs
// 2 x far_latency more (the link, both ways); a hit costs nothing more.
// dcu-z100: 64 CUs, 16 channels interleaved by 256 bytes, no hash, so with 2
// sides CU 0 (which runs the only workgroup) is on side 0 with channels 0-7.
#include <catch2/catch.hpp>

#include "helpers.h"
#include "sim/preset.h"
#include "traces/tools/generators.h"

using namespace dcusim;

namespace {

constexpr uint64_t kNear = 0x100000000ull;  // channel 0
constexpr uint64_t kFar = kNear + 8 * 256;  // channel 8

// Four kernels of one load each: the near line (a DRAM miss, then an L2 hit),
// then the far line (the same). The memory clock runs at the core clock, so
// no clock crossing rounds, and refresh is off.
RunResult four_loads(const char* sides) {
    Config cfg = test::preset("dcu-z100", {{"dram.tREFI", "0"}, {"dram.clock_mhz", "1500"}, {"l2.partitions", sides},
                                           {"l2.far_latency", "100"}});
    auto path = test::write_generated("partitions.dctrace", 64, [&](trace::RecordSink& s) {
        for (uint64_t addr : {kNear, kNear, kFar, kFar}) trace::gen_chase(s, 64, 64, 1, 64, addr);
    });
    return test::run_files(cfg, {path});
}

}  // namespace

TEST_CASE("L2 partitions: a far miss costs 2 x far_latency more, a far hit nothing", "[sim][partitions]") {
    const RunResult r = four_loads("2");
    CHECK(test::stat(r, "l2.far_fetches", 0) == 0);
    CHECK(test::stat(r, "l2.far_fetches", 2) == 1);
    CHECK(test::stat(r, "cycles", 2) == test::stat(r, "cycles", 0) + 200);
    // The second load of each line hits in the L2 (the L1 is emptied at a launch): no link.
    CHECK(test::stat(r, "l2.hits", 3) == 1);
    CHECK(test::stat(r, "l2.far_fetches", 3) == 0);
    CHECK(test::stat(r, "cycles", 3) == test::stat(r, "cycles", 1));
}

TEST_CASE("L2 partitions: one side never crosses the link", "[sim][partitions]") {
    const RunResult r = four_loads("1");
    CHECK(test::stat(r, "l2.far_fetches", 2) == 0);
    CHECK(test::stat(r, "cycles", 2) == test::stat(r, "cycles", 0));
}

TEST_CASE("L2 partitions: more sides than channels is an error naming the key", "[sim][partitions]") {
    Config cfg = test::preset("dcu-z100", {{"l2.partitions", "32"}});
    CHECK_THROWS_WITH(make_preset(cfg), Catch::Contains("l2.partitions"));
}
