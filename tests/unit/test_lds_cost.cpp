// LDS bank-conflict costs worked out by hand from the rule in
// models/lds/bank_model.h: groups of banks*bank_bytes/max(B, bank_bytes)
// lanes; a group costs the most distinct words any one bank serves.
#include <catch2/catch.hpp>

#include "helpers.h"
#include "models/lds/bank_model.h"

using namespace dcusim;
using dcusim::test::wave_of;

namespace {
LdsCost cost(const std::string& stmt, uint32_t banks = 32, uint32_t bank_bytes = 4, unsigned wave_size = 64) {
    auto w = wave_of({stmt}, wave_size, wave_size);
    return lds_cost(LdsGeometry{banks, bank_bytes}, w.instrs.at(0), w);
}
}  // namespace

TEST_CASE("4-byte lanes, 32 banks: stride 4 is conflict-free, 2 half-wave groups", "[lds]") {
    auto c = cost("ld lds 4 0 all affine 0 4");
    CHECK(c.cycles == 2);
    CHECK(c.conflict_cycles == 0);
    CHECK(c.groups == 2);
}

TEST_CASE("4-byte lanes, stride 8 bytes: two words per even bank", "[lds]") {
    auto c = cost("ld lds 4 0 all affine 0 8");
    CHECK(c.cycles == 4);
    CHECK(c.conflict_cycles == 2);
}

TEST_CASE("4-byte lanes, stride 128 bytes: every lane on bank 0, 32 per half-wave", "[lds]") {
    auto c = cost("ld lds 4 0 all affine 0 128");
    CHECK(c.cycles == 64);
    CHECK(c.conflict_cycles == 62);
}

TEST_CASE("4-byte lanes, stride 132 bytes (padded): conflict-free", "[lds]") {
    auto c = cost("ld lds 4 0 all affine 0 132");
    CHECK(c.cycles == 2);
    CHECK(c.conflict_cycles == 0);
}

TEST_CASE("same address in every lane is one broadcast per group", "[lds]") {
    auto c = cost("ld lds 4 0 all affine 0x40 0");
    CHECK(c.cycles == 2);
    CHECK(c.conflict_cycles == 0);
}

TEST_CASE("16 and 64 banks change the group size and the conflicts", "[lds]") {
    auto c16 = cost("ld lds 4 0 all affine 0 128", 16);
    CHECK(c16.cycles == 64);  // 4 groups of 16 lanes, 16 words on bank 0 each
    CHECK(c16.conflict_cycles == 60);
    auto c64 = cost("ld lds 4 0 all affine 0 128", 64);
    CHECK(c64.cycles == 32);  // 1 group of 64 lanes over banks 0 and 32
    CHECK(c64.conflict_cycles == 31);
    auto p64 = cost("ld lds 4 0 all affine 0 132", 64);
    CHECK(p64.cycles == 1);
}

TEST_CASE("partial masks: inactive groups cost nothing, active ones at least 1", "[lds]") {
    auto half = cost("ld lds 4 0 0xffffffff affine 0 128");
    CHECK(half.cycles == 32);
    CHECK(half.conflict_cycles == 31);
    CHECK(half.groups == 1);
    auto two_groups = cost("ld lds 4 0 0x100000001 affine 0 128");
    CHECK(two_groups.cycles == 2);
    CHECK(two_groups.conflict_cycles == 0);
    auto two_lanes = cost("ld lds 4 0 0x3 affine 0 128");  // words 0 and 32, both bank 0
    CHECK(two_lanes.cycles == 2);
    CHECK(two_lanes.conflict_cycles == 1);
}

TEST_CASE("8-byte lanes: 16-lane groups, consecutive lanes conflict-free", "[lds]") {
    auto c = cost("ld lds 8 0 all affine 0 8");
    CHECK(c.cycles == 4);
    CHECK(c.conflict_cycles == 0);
    auto s16 = cost("ld lds 8 0 all affine 0 16");  // words 4i, 4i+1: each used bank twice per group
    CHECK(s16.cycles == 8);
    CHECK(s16.conflict_cycles == 4);
}

TEST_CASE("16-byte lanes: 8-lane groups", "[lds]") {
    auto c = cost("ld lds 16 0 all affine 0 16");
    CHECK(c.cycles == 8);
    CHECK(c.conflict_cycles == 0);
    auto s32 = cost("ld lds 16 0 all affine 0 32");
    CHECK(s32.cycles == 16);
    CHECK(s32.conflict_cycles == 8);
}

TEST_CASE("sub-word and misaligned lanes", "[lds]") {
    CHECK(cost("ld lds 1 0 all affine 0 1").cycles == 2);  // 32 bytes per group: 8 words, 8 banks
    CHECK(cost("ld lds 2 0 all affine 0 2").cycles == 2);
    auto mis = cost("ld lds 4 0 all affine 2 4");  // lane i straddles words i and i+1: bank 0 serves 0 and 32
    CHECK(mis.cycles == 4);
    CHECK(mis.conflict_cycles == 2);
}

TEST_CASE("atomics to one word serialise, loads broadcast", "[lds]") {
    auto a = cost("atom lds 4 0 all affine 0 0");
    CHECK(a.cycles == 64);
    CHECK(a.conflict_cycles == 62);
    auto st = cost("st lds 4 0 all affine 0 0");
    CHECK(st.cycles == 2);
}

TEST_CASE("list addresses cost like the affine pattern they spell", "[lds]") {
    auto l = cost("ld lds 4 0 all list " + dcusim::test::lanes(64, [](unsigned i) { return (63 - i) * 4; }));
    CHECK(l.cycles == 2);
    auto l128 = cost("ld lds 4 0 all list " + dcusim::test::lanes(64, [](unsigned i) { return i * 128; }));
    CHECK(l128.cycles == 64);
}

TEST_CASE("wave32: one group of 32 lanes", "[lds]") {
    auto c = cost("ld lds 4 0 all affine 0 128", 32, 4, 32);
    CHECK(c.cycles == 32);
    CHECK(c.conflict_cycles == 31);
}

TEST_CASE("8-byte banks: 4-byte lanes at stride 4 pair up in one bank word", "[lds]") {
    // 32 banks x 8 B: lanes no wider than a bank go in groups of 32 (the banks);
    // lanes 2k and 2k+1 share word k: 16 words on 16 banks per group.
    auto c = cost("ld lds 4 0 all affine 0 4", 32, 8);
    CHECK(c.cycles == 2);
    CHECK(c.groups == 2);
    auto s64 = cost("ld lds 4 0 all affine 0 64", 32, 8);  // word 8i: banks 0, 8, 16, 24, 8 words each per group
    CHECK(s64.cycles == 16);
    CHECK(s64.conflict_cycles == 14);
}
