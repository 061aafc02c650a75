// Sampled simulation (sample.mode auto) on kernels whose full-run figures are worked out by hand:
// 2 CUs holding one workgroup each (an occupancy round of 2), every workgroup one wave of
// `compute N` (4N cycles: cu.issue_cycles 4), so each CU retires one every 4N cycles and the
// GPU one every 2N. Warm-up 1 round (2 retirements), windows of 1 round, 3 that must agree.
#include <catch2/catch.hpp>

#include <sstream>

#include "helpers.h"

using namespace dcusim;
using dcusim::test::run_text;
using dcusim::test::stat;

namespace {

// A kernel of workgroups each one wave of `compute counts[i]`.
std::string kernel_of(const std::vector<unsigned>& counts) {
    std::ostringstream o;
    o << "dcusim-trace 1\nwave_size 64\nkernel k grid " << counts.size() << " 1 1 block 64 1 1\n";
    for (size_t b = 0; b < counts.size(); ++b) o << "wave " << b << " 0\ncompute " << counts[b] << "\n";
    o << "end\n";
    return o.str();
}

RunResult run_sampled(const std::vector<unsigned>& counts, const char* mode) {
    return run_text(kernel_of(counts), {{"mem.model", "fixed"}, {"cu.count", "2"}, {"cu.max_workgroups", "1"},
                                        {"sample.mode", mode}, {"sample.warmup_rounds", "1"}, {"sample.window_rounds", "1"},
                                        {"sample.steady_windows", "3"}, {"sample.tolerance", "0.01"}});
}

}  // namespace

TEST_CASE("sampling: 1000 identical workgroups, projected within one workgroup's drain", "[sample]") {
    auto r = run_sampled(std::vector<unsigned>(1000, 3), "auto");
    // Full run (the `off` case below): 500 workgroups per CU, 12 cycles each: 6000. Sampled: both
    // CUs retire at 12 (the warm-up: mark 0), 24, 36 and 48 (three windows of 12): steady at 48,
    // 6 cycles a workgroup. Workgroup 8 was read at 36 to wait for room, so it is timed: it runs
    // alone from 48 to 60. The other 991 are skipped: 60 + 991 x 6 = 6006, 6 cycles (half a
    // workgroup) over the full run, as the last workgroup drains alone.
    CHECK(stat(r, "cycles") == 6006);
    CHECK(stat(r, "sample.projected") == 1);
    CHECK(stat(r, "sample.workgroups_total") == 1000);
    CHECK(stat(r, "sample.workgroups_simulated") == 9);
    CHECK(stat(r, "sample.cycles_simulated") == 60);
    // Sums: marks 0 and 3 are 6 launches apart, 3 compute instructions and 1 workgroup each:
    // 9 x 3 + 991 x 3, exact.
    CHECK(stat(r, "compute.instructions") == 3000);
    CHECK(stat(r, "workgroups") == 1000);
    CHECK(stat(r, "waves") == 1000);
    CHECK(r.kernels[0].projected);
    CHECK(r.kernels[0].sample_note.find("projected: 9 of 1000 workgroups simulated (1 signature classes)") == 0);
    // One measurement: windows of one round (2 workgroups) from 12 to 24, 36 and 48, all three the
    // span, 6 cycles a workgroup, and the 991 skipped at it.
    REQUIRE(r.kernels[0].sample_measurements.size() == 1);
    const SampleMeasurement& m = r.kernels[0].sample_measurements[0];
    CHECK(m.windows == std::vector<double>{12, 12, 12});
    CHECK(m.span_first == 0);
    CHECK(m.workgroups_per_window == 2);
    CHECK(m.rate == 6.0);
    CHECK(m.skipped == 991);
}

TEST_CASE("sampling: 1001 identical workgroups, projected exactly", "[sample]") {
    auto r = run_sampled(std::vector<unsigned>(1001, 3), "auto");
    // Full run: CU 0 takes 501 workgroups: 6012. Sampled: as above, 60 + 992 x 6 = 6012.
    CHECK(stat(r, "cycles") == 6012);
    CHECK(stat(r, "sample.workgroups_simulated") == 9);
}

TEST_CASE("sampling: a new class ends the skipping and is measured again", "[sample]") {
    std::vector<unsigned> counts(500, 3);
    counts.resize(1000, 5);
    auto r = run_sampled(counts, "auto");
    // Full run: 250 x 12 + 250 x 20 per CU = 8000. Sampled: the first class is steady at 48;
    // workgroup 8 (read at 36) is timed, 9-499 skipped (491 x 6). Workgroup 500, a new class,
    // starts at 48 on CU 1; the measurement counts its class's retirements only: 500 and 501 at
    // 68 and 80 (warm-up: mark at 80), windows of 20 to 140: steady, 10 a workgroup. 509 (read at
    // 128) is timed and ends at 160; 510-999 are skipped (490 x 10). 160 + 2946 + 4900 = 8006.
    CHECK(stat(r, "cycles") == 8006);
    CHECK(stat(r, "sample.workgroups_simulated") == 19);
    CHECK(stat(r, "sample.cycles_simulated") == 160);
    CHECK(stat(r, "compute.instructions") == 500 * 3 + 500 * 5);
    // Two measurements: 6 cycles a workgroup with 491 skipped, then windows of 20 (80 to 140), 10 a
    // workgroup with 490 skipped.
    REQUIRE(r.kernels[0].sample_measurements.size() == 2);
    CHECK(r.kernels[0].sample_measurements[0].rate == 6.0);
    CHECK(r.kernels[0].sample_measurements[0].skipped == 491);
    CHECK(r.kernels[0].sample_measurements[1].windows == std::vector<double>{20, 20, 20});
    CHECK(r.kernels[0].sample_measurements[1].rate == 10.0);
    CHECK(r.kernels[0].sample_measurements[1].skipped == 490);
}

TEST_CASE("sampling: a kernel too small runs in full and says so", "[sample]") {
    auto r = run_sampled(std::vector<unsigned>(999, 3), "auto");
    // 999 < sample.min_workgroups (1000): 500 workgroups on CU 0, 499 on CU 1: 6000 cycles.
    CHECK(stat(r, "cycles") == 6000);
    CHECK(stat(r, "sample.projected") == 0);
    CHECK(stat(r, "sample.workgroups_simulated") == 999);
    CHECK(!r.kernels[0].projected);
    CHECK(r.kernels[0].sample_note == "ran in full: 999 workgroups, fewer than sample.min_workgroups (1000)");
}

TEST_CASE("sampling: a kernel with fewer than twice the workgroups timed at least runs in full", "[sample]") {
    // Rounds of 2: the warm-up (2), 3 windows (6) and the round draining (2) are 10 timed at least;
    // 19 workgroups could skip fewer than that, so they run in full (10 on CU 0, 12 cycles each: 120).
    // (The sampler's own test has the boundary: twice that may be sampled.)
    auto r = run_text(kernel_of(std::vector<unsigned>(19, 3)), {{"mem.model", "fixed"}, {"cu.count", "2"}, {"cu.max_workgroups", "1"},
                                                                 {"sample.mode", "auto"}, {"sample.min_workgroups", "10"}});
    CHECK(stat(r, "cycles") == 120);
    CHECK(stat(r, "sample.projected") == 0);
    CHECK(r.kernels[0].sample_note ==
          "ran in full: 19 workgroups, fewer than twice the 10 timed at least (the warm-up, the steady windows and a round draining; rounds of 2)");
}

TEST_CASE("sampling: off changes nothing and adds nothing", "[sample]") {
    auto r = run_sampled(std::vector<unsigned>(1000, 3), "off");
    CHECK(stat(r, "cycles") == 6000);
    CHECK(r.kernels[0].stats.count("sample.projected") == 0);
    CHECK(r.kernels[0].sample_note.empty());
}

namespace {

// 1,000 workgroups of one wave, each loading one word of line (i mod 100) of 128 bytes: the first 100
// miss in the L2 (one DRAM fetch each), the other 900 hit. 2 CUs, one workgroup each.
RunResult run_lines(const char* warm) {
    std::ostringstream o;
    o << "dcusim-trace 1\nwave_size 64\nkernel k grid 1000 1 1 block 64 1 1\n";
    for (unsigned b = 0; b < 1000; ++b)
        o << "wave " << b << " 0\nld global 4 0x10 0x1 affine 0x" << std::hex << 0x100000 + (b % 100) * 128 << std::dec
          << " 0\nwait\n";
    o << "end\n";
    return run_text(o.str(), {{"cu.count", "2"}, {"cu.max_workgroups", "1"}, {"sample.mode", "auto"},
                              {"sample.warmup_rounds", "1"}, {"sample.window_rounds", "1"}, {"sample.steady_windows", "3"},
                              {"sample.tolerance", "0.05"}, {"sample.warm", warm}});
}

}  // namespace

TEST_CASE("sampling: warmed, the skipped workgroups' DRAM reads are counted, not projected", "[sample]") {
    // The default preset's L1 asks for its whole 64-byte line on a miss, 2 of the L2's 32-byte sectors,
    // and the L2 fetches just those: each of the 100 lines is fetched once (64 bytes), by whichever
    // workgroup first loads it, timed or skipped: 6,400 bytes, as a full run reads.
    auto r = run_lines("l2");
    REQUIRE(stat(r, "sample.projected") == 1);
    CHECK(stat(r, "dram.read_bytes") == 6400);
}

TEST_CASE("sampling: not warmed, the windows' reads stand for the skipped workgroups'", "[sample]") {
    // The windows are all misses (64 bytes a workgroup), and the hits that follow are not seen: over
    // 900 of the 1,000 workgroups are counted a fetch each, about ten times the full run's 6,400.
    auto r = run_lines("off");
    REQUIRE(stat(r, "sample.projected") == 1);
    CHECK(stat(r, "dram.read_bytes") > 900 * 64);
}

TEST_CASE("sampling: the skipped workgroups' instructions are counted from their trace", "[sample]") {
    // Workgroups of 100, 100 and 101 compute instructions in turn: one signature class (5 significant
    // bits), so windows of two workgroups see 200, 201 or 202 of them and a projection from them is
    // off; the skipped workgroups' own records give the sums exactly: 667 x 100 + 333 x 101.
    std::vector<unsigned> counts(1000);
    for (size_t i = 0; i < counts.size(); ++i) counts[i] = i % 3 == 2 ? 101 : 100;
    auto r = run_sampled(counts, "auto");
    REQUIRE(stat(r, "sample.projected") == 1);
    CHECK(r.kernels[0].sample_note.find("(1 signature classes)") != std::string::npos);
    CHECK(stat(r, "compute.instructions") == 100333);
    CHECK(stat(r, "instructions") == 100333);
    CHECK(stat(r, "simd.busy_cycles") == 4 * 100333);  // cu.issue_cycles 4
    CHECK(stat(r, "workgroups") == 1000);
    CHECK(stat(r, "waves") == 1000);
}
