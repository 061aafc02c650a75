// Pointer-chase self-checks: one lane loads and waits, so each load's
// latency is the period of the chase. Formulas (docs/ARCHITECTURE.md):
//   L1 hit:  l1.hit_latency
//   L2 hit:  l1.hit_latency + 2 x noc.latency + 2 link cycles + l2.hit_latency
//   DRAM (a row conflict in the same bank every time): the L2 formula plus
//            (tRP + tRCD + tCL + tBURST + (b - 1) x tCCD_L + dram.latency_cycles)
//            memory cycles in core cycles, b the bursts of the fetch (one bank:
//            one bank group), give or take the rounding at the two clock crossings;
//            in a partitioned L2, plus 2 x l2.far_latency (+ l2.hit_latency, the
//            home's lookup, with l2.replicate) for each line homed on the other side.
// Kernels: a warm-up, then n and 2n loads; the per-load figure is the
// difference of the last two divided by n, so cold misses cancel. Each
// kernel's one workgroup runs on CU 0 (every kernel starts there), so the
// three chases run on the same side of a partitioned L2, where the warm-up
// left copies.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "helpers.h"
#include "models/noc/channel_map.h"
#include "sim/preset.h"
#include "traces/tools/generators.h"

using namespace dcusim;

namespace {

enum class Level { L1, L2, Dram };

struct Chase {
    double per_load;
    double expected;
    RunResult r;
};

Chase run_chase(const std::string& preset_name, Level level) {
    Config cfg = test::preset(preset_name, {{"dram.tREFI", "0"}});
    Preset p = preset_registry::load(cfg);
    const uint32_t ws = p.cu.wave_size;
    const uint64_t line = p.l1.geometry.line_bytes;
    const uint64_t n = 200;
    uint64_t footprint = 0, stride = line, base0 = 0x100000000ull, base1 = base0, base2 = base0;
    double expected = 0;
    const double l2_path = p.l1.hit_latency + 2.0 * p.noc.latency + 2 + p.l2.hit_latency;
    switch (level) {
        case Level::L1:
            footprint = 32 * line;  // 32 lines: in L1
            expected = p.l1.hit_latency;
            break;
        case Level::L2:
            footprint = 1 << 20;  // larger than L1, in L2; no line is read twice in one kernel
            expected = l2_path;
            break;
        case Level::Dram: {
            // Same channel and bank, the next row: every load closes a row and opens another.
            stride = uint64_t(p.dram.channels) * p.dram.bank_groups * p.dram.banks_per_group * p.dram.row_bytes;
            footprint = stride * 4096;
            base1 = base0 + footprint;  // fresh addresses for each kernel: never in the L2
            base2 = base1 + footprint;
            const auto& t = p.dram.t;
            // The fetch: the L1's sector, or the L2's fetch block if larger.
            const uint64_t fetched = std::max<uint64_t>(p.l1.sector_bytes, uint64_t(p.l2.fetch_sectors) * p.l2.sector_bytes);
            const double bursts = double(fetched / p.dram.burst_bytes);
            double mem_cycles = t.RP + t.RCD + t.CL + t.BURST + (bursts - 1) * t.CCD_L + p.dram.latency_cycles;
            expected = l2_path + mem_cycles * p.clock_mhz / p.dram.clock_mhz;
            // Lines homed on the other side than the chases' (side 0) cost the link both ways.
            const L2Partitions& sides = p.l2.sides;
            if (sides.count > 1) {
                const ChannelMap map = p.noc.channel_map();
                auto far_lines = [&](uint64_t base, uint64_t loads) {
                    uint64_t far = 0;
                    for (uint64_t i = 0; i < loads; ++i)
                        far += sides.side_of_channel(map.channel_of(base + (i * stride) % footprint)) != 0;
                    return double(far);
                };
                const double link = 2.0 * sides.far_latency + (sides.replicating() ? p.l2.hit_latency : 0);
                expected += link * (far_lines(base2, 2 * n) - far_lines(base1, n)) / double(n);
            }
            break;
        }
    }
    auto path = test::write_generated("chase.dctrace", ws, [&](trace::RecordSink& s) {
        trace::gen_chase(s, footprint, stride, level == Level::Dram ? 1 : 2 * n, ws, base0);  // warm-up
        trace::gen_chase(s, footprint, stride, n, ws, base1);
        trace::gen_chase(s, footprint, stride, 2 * n, ws, base2);
    });
    Chase c{0, expected, test::run_files(cfg, {path})};
    c.per_load = (test::stat(c.r, "cycles", 2) - test::stat(c.r, "cycles", 1)) / double(n);
    return c;
}

}  // namespace

TEST_CASE("Z100 chase in L1: l1.hit_latency per load", "[sim][chase]") {
    auto c = run_chase("dcu-z100", Level::L1);
    CHECK(c.per_load == c.expected);
    CHECK(test::stat(c.r, "l1.hits", 2) == 400 - 32);
}

TEST_CASE("Z100 chase in L2: the L2 formula per load", "[sim][chase]") {
    auto c = run_chase("dcu-z100", Level::L2);
    CHECK(c.per_load == c.expected);
    CHECK(test::stat(c.r, "l1.hits", 2) == 0);
    CHECK(test::stat(c.r, "l2.hits", 2) == 400);
}

TEST_CASE("Z100 chase in DRAM: row conflicts, the DRAM formula, 3x an L1 load", "[sim][chase]") {
    auto c = run_chase("dcu-z100", Level::Dram);
    CHECK(std::fabs(c.per_load - c.expected) <= 0.01 * c.expected);
    CHECK(test::stat(c.r, "dram.row_conflicts", 2) == 400);
    CHECK(c.per_load >= 3 * preset_registry::load(test::preset("dcu-z100")).l1.hit_latency);
}

TEST_CASE("H200 chase in L1: l1.hit_latency per load", "[sim][chase]") {
    auto c = run_chase("h200", Level::L1);
    CHECK(c.per_load == c.expected);
}

TEST_CASE("H200 chase in L2: the L2 formula per load", "[sim][chase]") {
    auto c = run_chase("h200", Level::L2);
    CHECK(c.per_load == c.expected);
    CHECK(test::stat(c.r, "l2.hits", 2) == 400);
}

TEST_CASE("H200 chase in DRAM: row conflicts, the DRAM formula, 3x an L1 load", "[sim][chase]") {
    auto c = run_chase("h200", Level::Dram);
    CHECK(std::fabs(c.per_load - c.expected) <= 0.01 * c.expected);
    CHECK(test::stat(c.r, "dram.row_conflicts", 2) == 400);
    CHECK(c.per_load >= 3 * preset_registry::load(test::preset("h200")).l1.hit_latency);
}
