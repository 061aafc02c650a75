// The kernel reader's two steps (traces/replay/kernel_reader.h): a workgroup read but not taken
// (one the sampler skips) is still checked, and the next one comes out as a full read gives it.
#include <catch2/catch.hpp>

#include "helpers.h"
#include "traces/replay/kernel_reader.h"

using namespace dcusim::trace;
using dcusim::test::write_temp;

namespace {
// Three workgroups of 64 threads as two wave32s each; block b loads at 0x1000 + 0x100 b.
std::string three_blocks(const std::string& bad_line_in_block_1 = "") {
    std::string t = "dcusim-trace 1\nwave_size 32\nkernel k grid 3 1 1 block 64 1 1\n";
    for (int b = 0; b < 3; ++b)
        for (int w = 0; w < 2; ++w) {
            char line[160];
            std::snprintf(line, sizeof line, "wave %d %d\ncompute %d\nld global 4 0x10 all affine 0x%x 4\nwait\n", b, w, 3 + b,
                          0x1000 + 0x100 * b + 0x80 * w);
            t += line;
            if (b == 1 && w == 1) t += bad_line_in_block_1;
        }
    return t + "end\n";
}
KernelReader reader_of(const std::string& text, uint32_t target) {
    return KernelReader(std::make_unique<TraceStream>(write_temp("kr.trace", text)), target);
}
}  // namespace

TEST_CASE("kernel reader: a workgroup read and not taken is dropped and the next is as a full read gives it", "[replay]") {
    KernelReader two = reader_of(three_blocks(), 64), one = reader_of(three_blocks(), 64);
    REQUIRE(two.next_kernel());
    REQUIRE(one.next_kernel());
    WorkgroupTrace full;
    REQUIRE(one.next_workgroup(full));  // block 0
    REQUIRE(two.read_workgroup());      // block 0, at the capture's wave size: 2 waves of 3 instructions
    REQUIRE(two.read_waves().size() == 2);
    CHECK(two.read_waves()[1].instrs.size() == 3);
    CHECK(two.read_waves()[1].instrs[1].base == 0x1080);
    REQUIRE(two.read_workgroup());  // block 1 replaces it, in the same buffers
    CHECK(two.read_waves()[0].instrs[1].base == 0x1100);
    WorkgroupTrace taken;
    two.take_workgroup(taken);
    REQUIRE(one.next_workgroup(full));  // block 1 the usual way
    CHECK(taken.block == 1);
    CHECK(full.block == 1);
    REQUIRE(taken.waves.size() == 1);  // regrouped to one wave64: compute 4, one 64-lane load, wait
    REQUIRE(taken.waves[0].instrs.size() == full.waves[0].instrs.size());
    CHECK(taken.waves[0].instrs.size() == 3);
    CHECK(taken.waves[0].instrs[1].mask == ~0ull);
    CHECK(taken.waves[0].instrs[1].base == full.waves[0].instrs[1].base);
    CHECK(taken.waves[0].instrs[0].count == 4);
    REQUIRE(two.read_workgroup());  // block 2 after a take: fresh buffers
    CHECK(two.read_waves()[0].instrs[0].count == 5);
    CHECK_FALSE(two.read_workgroup());
    CHECK_FALSE(two.next_kernel());
}

TEST_CASE("kernel reader: a bad record in a workgroup read and not taken is still an error", "[replay][bad-input]") {
    const std::string path = write_temp("bad.trace", three_blocks("ld global 4 0x10 0x100000000 affine 0x1000 4\n"));
    KernelReader r(std::make_unique<TraceStream>(path), 32);
    REQUIRE(r.next_kernel());
    REQUIRE(r.read_workgroup());
    try {
        r.read_workgroup();
        FAIL("no error");
    } catch (const TraceError& e) {
        CHECK(std::string(e.what()).rfind(path + ":20: lane mask has lanes that do not exist", 0) == 0);
    }
}
