// LDS bank-conflict costs worked out by hand from the rule in
// models/lds/bank_model.h: groups of banks*bank_bytes/max(B, bank_bytes)
// lanes; a group costs the most distinct words any one bank serves.
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <set>

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

namespace {
// The rule of bank_model.h spelled out the slow, obvious way.
LdsCost reference_cost(const LdsGeometry& g, const trace::Instr& in, const trace::WaveTrace& w) {
    const uint32_t step = std::max<uint32_t>(in.bytes, g.bank_bytes);
    const uint32_t group_lanes = std::max<uint32_t>(1, g.banks * g.bank_bytes / step);
    std::map<unsigned, std::set<std::pair<uint64_t, unsigned>>> groups;
    w.for_each_lane(in, [&](unsigned lane, uint64_t a) {
        for (uint64_t word = a / g.bank_bytes; word <= (a + in.bytes - 1) / g.bank_bytes; ++word)
            groups[lane / group_lanes].insert({word, in.op == trace::Op::Atomic ? lane + 1 : 0});
    });
    LdsCost c;
    for (const auto& [gi, words] : groups) {
        std::map<uint64_t, uint32_t> per_bank;
        uint32_t worst = 0;
        for (const auto& wd : words) worst = std::max(worst, ++per_bank[wd.first % g.banks]);
        c.cycles += worst;
        c.conflict_cycles += worst - 1;
        c.groups += 1;
    }
    return c;
}
}  // namespace

TEST_CASE("the fast paths agree with the rule spelled out", "[lds]") {
    std::mt19937_64 rng(1);
    int compared = 0;
    for (uint32_t banks : {16u, 32u, 48u, 64u})
        for (uint32_t bank_bytes : {4u, 8u})
            for (unsigned bytes : {1u, 4u, 8u, 16u})
                for (long stride : {-132L, -8L, 0L, 2L, 4L, 8L, 12L, 16L, 64L, 128L, 132L, 260L})
                    for (unsigned base : {0u, 2u, 4u, 8192u, 9002u})
                        for (const char* op : {"ld", "atom"})
                            for (uint64_t mask : {uint64_t(~0ull), uint64_t(0xffff0000ffffull), uint64_t(0x5555555555555555ull), uint64_t(rng())}) {
                                if (!mask || (stride < 0 && base < 64 * -stride)) continue;  // would wrap below 0
                                char stmt[160];
                                std::snprintf(stmt, sizeof stmt, "%s lds %u 0 0x%llx affine %u %ld", op, bytes,
                                              static_cast<unsigned long long>(mask), base, stride);
                                auto w = wave_of({stmt}, 64, 64);
                                LdsGeometry g{banks, bank_bytes};
                                LdsCost fast = lds_cost(g, w.instrs.at(0), w), ref = reference_cost(g, w.instrs.at(0), w);
                                INFO(stmt << " banks " << banks << " x " << bank_bytes);
                                REQUIRE(fast.cycles == ref.cycles);
                                REQUIRE(fast.conflict_cycles == ref.conflict_cycles);
                                REQUIRE(fast.groups == ref.groups);
                                ++compared;
                            }
    CHECK(compared > 10000);
}
