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

// lds.vector_data: a vector load's data is read out of the shared data stage one 128-byte line a
// cycle in the cycles just before it is back. Default geometry, wave64: a conflict-free 64-lane
// 4-byte access is 2 groups, 2 pipe cycles; 64 lanes x 4 bytes from address 0 touch 2 lines.
TEST_CASE("LDS pipe: returning vector data takes shared loads' cycles", "[lds]") {
    LdsParams p;
    p.vector_data = VectorDataStage::Loads;
    Lds lds("lds", p);
    const auto w = wave_of({"ld lds 4 0 all affine 0 4", "ld global 4 0 all affine 0 4", "ld lds 4 0 all affine 0 4",
                            "ld global 4 0 all affine 0 0", "ld lds 4 0 all affine 0 4", "st lds 4 0 all affine 0 4"});
    // Served in [0, 2); data back at 2 + 64.
    CHECK(lds.lds_access(w.instrs[0], w, 0) == 66);
    // The global load's 2 lines are read out in [0, 2), both cycles of the shared load: it takes
    // 2 more, the pipe is free at 4 (its answer, already given, stays).
    lds.vector_return(w.instrs[1], w, 2);
    // Issued at 3, served in [4, 6): back at 70.
    CHECK(lds.lds_access(w.instrs[2], w, 3) == 70);
    // A broadcast global load (1 line) back at 20 holds the stage in [19, 20): a shared load issued
    // at 19 starts at 20, one lost cycle, served in [20, 22): back at 86.
    lds.vector_return(w.instrs[3], w, 20);
    CHECK(lds.lds_access(w.instrs[4], w, 19) == 86);
    // Stores do not lose cycles under `loads`: the same line back at 30 takes nothing from the store
    // served in [29, 31).
    CHECK(lds.lds_access(w.instrs[5], w, 29) == 95);
    lds.vector_return(w.instrs[3], w, 30);
    const LdsStats& s = lds.stats();
    CHECK(s.vector_data_cycles == 3);
    CHECK(s.load_conflict_cycles == 3);
    CHECK(s.store_conflict_cycles == 0);
    CHECK(s.bank_conflict_cycles == 3);
    CHECK(s.load_cycles == 3 * 2 + 3);
    CHECK(s.queue_cycles == 1);
}

TEST_CASE("LDS pipe: under `all` stores lose the cycles too, under `off` none", "[lds]") {
    const auto w = wave_of({"st lds 4 0 all affine 0 4", "ld global 4 0 all affine 0 4", "st lds 4 0 all affine 0 4"});
    for (auto [mode, lost] : {std::pair{VectorDataStage::All, 2u}, std::pair{VectorDataStage::Off, 0u}}) {
        LdsParams p;
        p.vector_data = mode;
        Lds lds("lds", p);
        CHECK(lds.lds_access(w.instrs[0], w, 10) == 76);  // served in [10, 12)
        lds.vector_return(w.instrs[1], w, 12);            // lines read out in [10, 12)
        // The next store queues behind the pipe: free at 12 + lost.
        CHECK(lds.lds_access(w.instrs[2], w, 10) == 12 + lost + 2 + 64);
        CHECK(lds.stats().store_conflict_cycles == lost);
    }
}
