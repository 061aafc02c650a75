// Wave issue, wait, barrier, outstanding limit and occupancy, worked out by
// hand with 1 CU, 1-cycle issue and a fixed 100-cycle memory (mem.model fixed).
#include <catch2/catch.hpp>

#include "helpers.h"

using namespace dcusim::test;

namespace {
std::initializer_list<std::pair<const char*, const char*>> kSimple = {
    {"cu.count", "1"}, {"cu.issue_cycles", "1"}, {"mem.model", "fixed"}, {"mem.latency", "100"}};
}

TEST_CASE("wait holds the wave until its load is back, without it the wave drains at the end", "[sim][issue]") {
    auto r = run_text("dcusim-trace 1\nwave_size 64\n"
                      "kernel with_wait grid 1 1 1 block 64 1 1\nwave 0 0\nld global 4 0 all affine 0 4\nwait\ncompute 1\nend\n"
                      "kernel no_wait grid 1 1 1 block 64 1 1\nwave 0 0\nld global 4 0 all affine 0 4\ncompute 1\nend\n",
                      kSimple);
    CHECK(stat(r, "cycles", 0) == 101);  // load back at 100, then 1 compute
    CHECK(stat(r, "stall.wait_cycles", 0) == 99);
    CHECK(stat(r, "cycles", 1) == 100);
    CHECK(stat(r, "stall.wait_cycles", 1) == 0);
    CHECK(stat(r, "instructions", 0) == 3);
}

TEST_CASE("bar holds each wave until its whole workgroup arrives", "[sim][issue]") {
    // Wave 0 computes 10 cycles before the barrier; wave 1 arrives at cycle 1.
    auto r = run_text("dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 128 1 1\n"
                      "wave 0 0\ncompute 10\nbar 0x8\ncompute 1\nwave 0 1\nbar 0x8\ncompute 1\nend\n",
                      {{"cu.count", "1"}, {"cu.issue_cycles", "1"}, {"cu.simds", "2"}});
    CHECK(stat(r, "cycles") == 12);  // release at 11, one compute each
    CHECK(stat(r, "stall.barrier_cycles") == 10);
    CHECK(stat(r, "barriers") == 2);
}

namespace {
// Four waves of one workgroup on four SIMDs, then two workgroups of two waves: every wave issues its
// barrier at cycle 0 and arrives at 1.
const char* kBarriers = "dcusim-trace 1\nwave_size 64\nkernel one grid 1 1 1 block 256 1 1\n"
                        "wave 0 0\nbar 0x8\ncompute 1\nwave 0 1\nbar 0x8\ncompute 1\n"
                        "wave 0 2\nbar 0x8\ncompute 1\nwave 0 3\nbar 0x8\ncompute 1\nend\n"
                        "kernel two grid 2 1 1 block 128 1 1\n"
                        "wave 0 0\nbar 0x8\ncompute 1\nwave 0 1\nbar 0x8\ncompute 1\n"
                        "wave 1 0\nbar 0x8\ncompute 1\nwave 1 1\nbar 0x8\ncompute 1\nend\n";
}  // namespace

TEST_CASE("the CU takes barrier arrivals one every cu.barrier_arrive_cycles and releases cu.barrier_cycles after the last", "[sim][issue]") {
    auto r = run_text(kBarriers, {{"cu.count", "1"}, {"cu.issue_cycles", "1"}, {"cu.simds", "4"},
                                  {"cu.barrier_arrive_cycles", "2"}, {"cu.barrier_cycles", "10"}});
    // One workgroup: the unit takes the four in 2-cycle slots ending at 3, 5, 7 and 9; the release is 10
    // later, at 19, then one compute each.
    CHECK(stat(r, "cycles", 0) == 20);
    CHECK(stat(r, "stall.barrier_cycles", 0) == 4 * 18);  // each waits from 1 to 19
    // Two workgroups share the unit: the first's waves are taken at 3 and 5 (release at 15), the
    // second's at 7 and 9 (release at 19). A unit per workgroup would release both at 15.
    CHECK(stat(r, "cycles", 1) == 20);
    CHECK(stat(r, "stall.barrier_cycles", 1) == 2 * 14 + 2 * 18);
}

TEST_CASE("cu.barrier_arrive_cycles may be fractional", "[sim][issue]") {
    // Slots of 1.5 cycles from cycle 1 end at 2.5, 4, 5.5 and 7: the last is taken at 7, released at 17.
    auto r = run_text(kBarriers, {{"cu.count", "1"}, {"cu.issue_cycles", "1"}, {"cu.simds", "4"},
                                  {"cu.barrier_arrive_cycles", "1.5"}, {"cu.barrier_cycles", "10"}});
    CHECK(stat(r, "cycles", 0) == 18);
    CHECK(stat(r, "stall.barrier_cycles", 0) == 4 * 16);  // taken at 3, 4, 6 and 7, each waits from 1 to 17
}

TEST_CASE("a retired wave no longer counts at a barrier", "[sim][issue]") {
    auto r = run_text("dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 128 1 1\n"
                      "wave 0 0\nbar 0x8\ncompute 5\nwave 0 1\ncompute 20\nend\n",
                      {{"cu.count", "1"}, {"cu.issue_cycles", "1"}, {"cu.simds", "2"}});
    CHECK(stat(r, "cycles") == 25);  // wave 1 retires at 20, releasing wave 0, which computes 5
}

TEST_CASE("the outstanding-memory limit stalls issue", "[sim][issue]") {
    auto r = run_text(one_wave_trace(64, 64, "ld global 4 0 all affine 0 4\nld global 4 0 all affine 0 4\n"
                                             "ld global 4 0 all affine 0 4\nwait"),
                      {{"cu.count", "1"}, {"cu.issue_cycles", "1"}, {"mem.model", "fixed"}, {"mem.latency", "100"}, {"cu.max_outstanding", "2"}});
    CHECK(stat(r, "cycles") == 200);  // the third load waits for the first (back at 100)
    CHECK(stat(r, "stall.outstanding_cycles") == 98);
}

TEST_CASE("occupancy limits how many workgroups run at once", "[sim][issue][occupancy]") {
    std::string body;
    for (int b = 0; b < 3; ++b) body += "wave " + std::to_string(b) + " 0\nld global 4 0 all affine 0 4\n";
    auto r = run_text("dcusim-trace 1\nwave_size 64\n"
                      "kernel fat grid 3 1 1 block 64 1 1 vgprs 256\n" + body + "end\n" +
                      "kernel thin grid 3 1 1 block 64 1 1 vgprs 64\n" + body + "end\n",
                      {{"cu.count", "1"}, {"cu.issue_cycles", "1"}, {"mem.model", "fixed"}, {"mem.latency", "100"}, {"cu.simds", "1"}});
    CHECK(stat(r, "occupancy.workgroups_per_cu", 0) == 1);
    CHECK(stat(r, "cycles", 0) == 300);  // one after another
    CHECK(stat(r, "occupancy.workgroups_per_cu", 1) == 4);
    CHECK(stat(r, "cycles", 1) == 102);  // together, issuing at 0, 1, 2
    CHECK(stat(r, "workgroups", 1) == 3);
}

TEST_CASE("a kernel that cannot fit on the preset is an error", "[sim][issue][bad-input]") {
    CHECK_THROWS_WITH(run_text("dcusim-trace 1\nwave_size 64\nkernel big grid 1 1 1 block 64 1 1 lds 100000\nwave 0 0\nend\n"),
                      "kernel 'big': workgroup needs 100352 bytes of LDS, the preset has 65536 (lds.size_bytes)");
}

TEST_CASE("long-latency instructions hold the wave cu.long_issue_cycles each", "[sim][issue]") {
    // 1-cycle issue, wave_issue 4, long 20: compute 10 long 3 is 7 x 4 + 3 x 20 = 88 cycles,
    // then the load is back 100 later: 188. Without the key (0) all ten take 4: 140.
    const std::string t = "dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\nwave 0 0\n"
                          "compute 10 long 3\nld global 4 0 all affine 0 4\nend\n";
    auto r = run_text(t, {{"cu.count", "1"}, {"cu.issue_cycles", "1"}, {"cu.wave_issue_cycles", "4"},
                          {"cu.long_issue_cycles", "20"}, {"mem.model", "fixed"}, {"mem.latency", "100"}});
    CHECK(stat(r, "cycles") == 188);
    CHECK(stat(r, "compute.instructions") == 10);
    CHECK(stat(r, "simd.busy_cycles") == 11);  // the SIMD is busy one cycle per instruction
}

TEST_CASE("middle-latency instructions hold the wave cu.mid_issue_cycles each", "[sim][issue]") {
    // 1-cycle issue, wave_issue 4, long 20, mid 9: compute 10 long 3 mid 2 is 5 x 4 + 3 x 20 + 2 x 9 = 98
    // cycles, then the load is back 100 later: 198.
    const std::string t = "dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\nwave 0 0\n"
                          "compute 10 long 3 mid 2\nld global 4 0 all affine 0 4\nend\n";
    auto r = run_text(t, {{"cu.count", "1"}, {"cu.issue_cycles", "1"}, {"cu.wave_issue_cycles", "4"},
                          {"cu.long_issue_cycles", "20"}, {"cu.mid_issue_cycles", "9"}, {"mem.model", "fixed"},
                          {"mem.latency", "100"}});
    CHECK(stat(r, "cycles") == 198);
    CHECK(stat(r, "simd.busy_cycles") == 11);
}

TEST_CASE("without cu.long_issue_cycles a long-latency instruction takes cu.wave_issue_cycles", "[sim][issue]") {
    const std::string t = "dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\nwave 0 0\n"
                          "compute 10 long 3\nld global 4 0 all affine 0 4\nend\n";
    auto r = run_text(t, {{"cu.count", "1"}, {"cu.issue_cycles", "1"}, {"cu.wave_issue_cycles", "4"},
                          {"mem.model", "fixed"}, {"mem.latency", "100"}});
    CHECK(stat(r, "cycles") == 140);
}

namespace {
// One CU that holds one workgroup at a time (256 VGPRs); three workgroups of one wave, each a
// 100-cycle load, a wait and 1 compute: 101 cycles each.
std::string three_serial_workgroups() {
    std::string body;
    for (int b = 0; b < 3; ++b) body += "wave " + std::to_string(b) + " 0\nld global 4 0 all affine 0 4\nwait\ncompute 1\n";
    return "dcusim-trace 1\nwave_size 64\nkernel k grid 3 1 1 block 64 1 1 vgprs 256\n" + body + "end\n";
}
}  // namespace

TEST_CASE("a workgroup's waves start cu.workgroup_start_cycles after the CU takes it and hold its slot meanwhile", "[sim][issue][occupancy]") {
    // Each begins 50 after its slot frees: 3 x (50 + 101) = 453 cycles.
    auto r = run_text(three_serial_workgroups(), {{"cu.count", "1"}, {"cu.issue_cycles", "1"}, {"cu.simds", "1"}, {"mem.model", "fixed"},
                                                  {"mem.latency", "100"}, {"cu.workgroup_start_cycles", "50"}});
    CHECK(stat(r, "cycles") == 453);
}

TEST_CASE("without cu.workgroup_start_cycles a workgroup starts when the CU takes it", "[sim][issue][occupancy]") {
    auto r = run_text(three_serial_workgroups(), {{"cu.count", "1"}, {"cu.issue_cycles", "1"}, {"cu.simds", "1"}, {"mem.model", "fixed"},
                                                  {"mem.latency", "100"}});
    CHECK(stat(r, "cycles") == 303);  // 3 x 101
}

TEST_CASE("a compute record's stall cycles hold the wave instead of cu.wave_issue_cycles each", "[sim][issue][stall]") {
    // 1-cycle issue, wave_issue 4, long 20. compute 10 stall 14: the load issues at 14, back at 114
    // (without `stall`, 10 x 4 = 40: 140). stall 6 is less than the 10 issue cycles: 10, back at 110.
    // compute 10 long 2 stall 14: the two long results still come 20 - 4 later each: 14 + 32 = 46, 146.
    auto one = [](const std::string& compute) {
        return "dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\nwave 0 0\n" + compute +
               "\nld global 4 0 all affine 0 4\nend\n";
    };
    const std::string t = one("compute 10 stall 14") + one("compute 10").substr(28) + one("compute 10 stall 6").substr(28) +
                          one("compute 10 long 2 stall 14").substr(28);
    auto r = run_text(t, {{"cu.count", "1"}, {"cu.issue_cycles", "1"}, {"cu.wave_issue_cycles", "4"},
                          {"cu.long_issue_cycles", "20"}, {"mem.model", "fixed"}, {"mem.latency", "100"}});
    CHECK(stat(r, "cycles", 0) == 114);
    CHECK(stat(r, "cycles", 1) == 140);
    CHECK(stat(r, "cycles", 2) == 110);
    CHECK(stat(r, "cycles", 3) == 146);
    CHECK(stat(r, "simd.busy_cycles", 0) == 11);  // the SIMD is still busy one cycle per instruction
}

TEST_CASE("wait keep K waits only for the wave's memory operations older than its K youngest", "[sim][issue][wait]") {
    // 1-cycle issue and hold, 100-cycle memory. Load A issues at 0 (back at 100), compute 49 to 50, load B
    // at 50 (back at 150), the wait at 51, then compute 60. keep 1 waits for A alone: 100 + 60 = 160, B
    // already back. A plain wait waits for B too: 150 + 60 = 210. keep 2 waits for neither: 51 + 60 = 111,
    // then the wave drains until B is back at 150.
    auto one = [](const std::string& wait) {
        return "kernel k grid 1 1 1 block 64 1 1\nwave 0 0\nld global 4 0 all affine 0 4\ncompute 49\n"
               "ld global 4 0x100 all affine 0x100 4\n" + wait + "\ncompute 60\nend\n";
    };
    auto r = run_text("dcusim-trace 1\nwave_size 64\n" + one("wait keep 1") + one("wait") + one("wait keep 2"), kSimple);
    CHECK(stat(r, "cycles", 0) == 160);
    CHECK(stat(r, "stall.wait_cycles", 0) == 49);  // from 51 to 100
    CHECK(stat(r, "cycles", 1) == 210);
    CHECK(stat(r, "stall.wait_cycles", 1) == 99);
    CHECK(stat(r, "cycles", 2) == 150);
    CHECK(stat(r, "stall.wait_cycles", 2) == 0);
}

TEST_CASE("wait keep K keeps the K youngest loads: stores that waits count are never kept", "[sim][issue][wait]") {
    // cu.wait_stores on: waits count stores. Load A at 0 (back at 100), load B at 50 (back at 150), store C
    // at 60 (back at 160), the wait at 61, compute 70. keep 1 keeps B, the youngest load, and C after it:
    // it waits for A alone, 100 + 70 = 170 (C is back by then). Were C counted as the one kept, the wait
    // would wait for B too: 150 + 70 = 220. A plain wait waits for C: 160 + 70 = 230.
    auto one = [](const std::string& wait) {
        return "kernel k grid 1 1 1 block 64 1 1\nwave 0 0\nld global 4 0 all affine 0 4\ncompute 49\n"
               "ld global 4 0x100 all affine 0x100 4\ncompute 9\nst global 4 0x200 all affine 0x200 4\n" + wait +
               "\ncompute 70\nend\n";
    };
    auto r = run_text("dcusim-trace 1\nwave_size 64\n" + one("wait keep 1") + one("wait"),
                      {{"cu.count", "1"}, {"cu.issue_cycles", "1"}, {"mem.model", "fixed"}, {"mem.latency", "100"},
                       {"cu.wait_stores", "on"}});
    CHECK(stat(r, "cycles", 0) == 170);
    CHECK(stat(r, "cycles", 1) == 230);
}
