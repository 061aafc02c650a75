// The LDS alone: one in-order pipe in front of the banks (the banks' cost is
// tests/unit/test_lds_cost.cpp's). Default geometry, 32 banks of 4 bytes, wave64: a
// 64-lane access is two groups of 32 lanes; at a 128-byte stride every lane of a group is
// in one bank (32 cycles a group), at 4 bytes each lane has its own (1 cycle a group).
// Data is back `latency` (64) cycles after the pipe has served the last group, plus
// replay_latency for each conflict cycle.
#include <catch2/catch.hpp>

#include "helpers.h"
#include "models/lds/lds.h"

using namespace dcusim;
using dcusim::test::wave_of;

TEST_CASE("LDS pipe: a conflicted load, then a store queued behind it", "[lds]") {
    Lds lds("lds", LdsParams{});
    const auto w = wave_of({"ld lds 4 0 all affine 0 128", "st lds 4 0 all affine 0 4"});
    // Load at cycle 0: the pipe serves 2 x 32 cycles, data back at 64 + 64.
    CHECK(lds.lds_access(w.instrs[0], w, 0) == 128);
    // Store at cycle 10: waits for the pipe until 64, is served in 2 cycles, done at 66 + 64.
    CHECK(lds.lds_access(w.instrs[1], w, 10) == 130);
    const LdsStats& s = lds.stats();
    CHECK(s.instructions == 2);
    CHECK(s.loads == 1);
    CHECK(s.stores == 1);
    CHECK(s.cycles == 66);
    CHECK(s.bank_conflict_cycles == 62);
    CHECK(s.load_cycles == 64);
    CHECK(s.load_conflict_cycles == 62);
    CHECK(s.store_cycles == 2);
    CHECK(s.store_conflict_cycles == 0);
    CHECK(s.groups == 4);
    CHECK(s.bytes == 2 * 64 * 4);
    CHECK(s.queue_cycles == 64 - 10);
}

TEST_CASE("LDS pipe: each conflict cycle adds replay_latency to the data's return", "[lds]") {
    LdsParams p;
    p.replay_latency = 2;
    Lds lds("lds", p);
    const auto w = wave_of({"ld lds 4 0 all affine 0 128", "ld lds 4 0 all affine 0 4"});
    CHECK(lds.lds_access(w.instrs[0], w, 0) == 64 + 64 + 62 * 2);
    // The pipe is free again at 64, whatever the first access's replays cost it in latency.
    CHECK(lds.lds_access(w.instrs[1], w, 64) == 66 + 64);
    CHECK(lds.stats().queue_cycles == 0);
}

// lds.launch_conflict_cycles: a workgroup launched beside resident ones, once the LDS has served a
// shared access this kernel, costs the next shared load that many cycles, counted as conflicts (the
// H200 counts them on loads only). Default geometry, wave64: a conflict-free 64-lane 4-byte access is
// 2 groups, 2 pipe cycles.
TEST_CASE("LDS pipe: a launch beside running workgroups costs the next load a conflict cycle", "[lds]") {
    LdsParams p;
    p.launch_conflict_cycles = 1;
    Lds lds("lds", p);
    const auto w = wave_of({"ld lds 4 0 all affine 0 4", "st lds 4 0 all affine 0 4"});
    lds.workgroup_launched(3);  // the first wave: no shared access yet, nothing counted
    CHECK(lds.lds_access(w.instrs[0], w, 0) == 2 + 64);
    lds.workgroup_launched(0);  // alone on the CU: nothing
    lds.workgroup_launched(2);  // beside two: the next load takes 1 more cycle
    // The store at 10 takes none: served in [10, 12), back at 76.
    CHECK(lds.lds_access(w.instrs[1], w, 10) == 76);
    // The load at 20: 1 + 2 cycles, served in [20, 23), back at 87.
    CHECK(lds.lds_access(w.instrs[0], w, 20) == 87);
    // Only once: the load at 30 is served in [30, 32).
    CHECK(lds.lds_access(w.instrs[0], w, 30) == 96);
    const LdsStats& s = lds.stats();
    CHECK(s.launch_cycles == 1);
    CHECK(s.bank_conflict_cycles == 1);
    CHECK(s.store_conflict_cycles == 0);
    CHECK(s.store_cycles == 2);
    CHECK(s.load_conflict_cycles == 1);
    CHECK(s.load_cycles == 7);
}

TEST_CASE("LDS pipe: launch conflict cycles add up until an access takes them and 0 counts none", "[lds]") {
    const auto w = wave_of({"ld lds 4 0 all affine 0 4"});
    for (auto [k, lost] : {std::pair{2u, 4u}, std::pair{0u, 0u}}) {
        LdsParams p;
        p.launch_conflict_cycles = k;
        Lds lds("lds", p);
        CHECK(lds.lds_access(w.instrs[0], w, 0) == 66);
        lds.workgroup_launched(1);
        lds.workgroup_launched(5);
        // Served in [5, 5 + lost + 2).
        CHECK(lds.lds_access(w.instrs[0], w, 5) == 5 + lost + 2 + 64);
        CHECK(lds.stats().load_conflict_cycles == lost);
    }
}

// lds.empty_cycles: an instruction with no lane on (predicated off) holds the pipe, in order with the
// others, and reads no bank (no wavefront, no conflict); it is done lds.latency after its slot, as an
// access's data is back.
TEST_CASE("LDS pipe: instructions with no lane on hold it empty_cycles each", "[lds]") {
    LdsParams p;
    p.empty_cycles = 1;
    Lds lds("lds", p);
    const auto w = wave_of({"ld lds 4 0 all affine 0 4"});
    // Three at 5: served in [5, 6), [6, 7), [7, 8), done 64 later.
    CHECK(lds.empty_issue(5) == 6 + 64);
    CHECK(lds.empty_issue(5) == 7 + 64);
    CHECK(lds.empty_issue(5) == 8 + 64);
    // The load at 6 waits for 8, is served in 2 cycles, back at 10 + 64.
    CHECK(lds.lds_access(w.instrs[0], w, 6) == 74);
    CHECK(lds.empty_issue(20) == 21 + 64);  // a free pipe: [20, 21), then [21, 22)
    CHECK(lds.empty_issue(20) == 22 + 64);
    CHECK(lds.lds_access(w.instrs[0], w, 21) == 24 + 64);
    const LdsStats& s = lds.stats();
    CHECK(s.empty_instructions == 5);
    CHECK(s.empty_cycles == 5);
    CHECK(s.instructions == 2);
    CHECK(s.cycles == 4);
    CHECK(s.groups == 4);
    CHECK(s.bank_conflict_cycles == 0);
    CHECK(s.queue_cycles == (0 + 1 + 2) + 2 + 1 + 1);
}

TEST_CASE("LDS pipe: with empty_cycles 0 an instruction with no lane on never reaches it", "[lds]") {
    Lds lds("lds", LdsParams{});
    const auto w = wave_of({"ld lds 4 0 all affine 0 4"});
    for (int i = 0; i < 3; ++i) CHECK(lds.empty_issue(5) == WaveMemIf::kSkipped);
    CHECK(lds.lds_access(w.instrs[0], w, 5) == 7 + 64);
    CHECK(lds.stats().empty_instructions == 3);
    CHECK(lds.stats().empty_cycles == 0);
    CHECK(lds.stats().queue_cycles == 0);
}
