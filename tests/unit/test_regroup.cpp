// Wave regrouping 32 -> 64 and 64 -> 32 (docs/trace-format.md).
#include <catch2/catch.hpp>

#include "helpers.h"

using namespace dcusim::trace;
using dcusim::test::wave_of;

namespace {
std::vector<uint64_t> addrs(const WaveTrace& w, const Instr& in) {
    std::vector<uint64_t> a;
    w.for_each_lane(in, [&](unsigned, uint64_t x) { a.push_back(x); });
    return a;
}
}  // namespace

TEST_CASE("32 -> 64: matching PCs merge into one 64-lane instruction", "[regroup]") {
    std::vector<WaveTrace> in = {
        wave_of({"ld lds 4 0x10 all affine 0 4", "compute 3", "bar 0x20", "ld global 4 0x30 all affine 0x1000 8"}, 32, 32),
        wave_of({"ld lds 4 0x10 all affine 128 4", "compute 5", "bar 0x20", "ld global 4 0x30 all affine 0x9000 8"}, 32, 32)};
    auto out = regroup_waves(in, 32, 64, 64);
    REQUIRE(out.size() == 1);
    const auto& w = out[0];
    REQUIRE(w.instrs.size() == 4);
    // lanes 32-63 continue the affine pattern: stays affine
    CHECK(w.instrs[0].mask == ~0ull);
    CHECK(w.instrs[0].mode == AddrMode::Affine);
    CHECK(w.instrs[0].base == 0);
    CHECK(w.instrs[0].stride == 4);
    CHECK(w.instrs[1].kind == RecKind::Compute);
    CHECK(w.instrs[1].count == 5);  // the larger of the halves' counts
    CHECK(w.instrs[2].kind == RecKind::Barrier);
    // upper half does not continue the pattern: becomes a list
    CHECK(w.instrs[3].mode == AddrMode::List);
    auto a = addrs(w, w.instrs[3]);
    REQUIRE(a.size() == 64);
    CHECK(a[0] == 0x1000);
    CHECK(a[31] == 0x1000 + 31 * 8);
    CHECK(a[32] == 0x9000);
    CHECK(a[63] == 0x9000 + 31 * 8);
}

TEST_CASE("32 -> 64: unmatched instructions issue alone, on their own lanes", "[regroup]") {
    std::vector<WaveTrace> in = {wave_of({"ld lds 4 0x10 all affine 0 4", "ld lds 4 0x18 0x1 affine 0x40 0"}, 32, 32),
                                 wave_of({"ld lds 4 0x14 0x3 affine 0x80 4", "ld lds 4 0x18 0x1 affine 0x40 0"}, 32, 32)};
    auto out = regroup_waves(in, 32, 64, 64);
    const auto& w = out.at(0);
    REQUIRE(w.instrs.size() == 3);
    CHECK(w.instrs[0].pc == 0x10);
    CHECK(w.instrs[0].mask == 0xffffffffull);
    CHECK(w.instrs[1].pc == 0x14);
    CHECK(w.instrs[1].mask == 0x3ull << 32);
    CHECK(addrs(w, w.instrs[1]) == std::vector<uint64_t>{0x80, 0x84});
    CHECK(w.instrs[2].pc == 0x18);
    CHECK(w.instrs[2].mask == (1ull | 1ull << 32));
    CHECK(addrs(w, w.instrs[2]) == std::vector<uint64_t>{0x40, 0x40});
}

TEST_CASE("32 -> 64: the k-th instance of a PC pairs with the k-th", "[regroup]") {
    // A loop body at PC 0x10 runs 3 times in wave 0 and twice in wave 1.
    std::vector<WaveTrace> in = {
        wave_of({"ld lds 4 0x10 all affine 0 4", "ld lds 4 0x10 all affine 0 4", "ld lds 4 0x10 all affine 0 4"}, 32, 32),
        wave_of({"ld lds 4 0x10 all affine 128 4", "ld lds 4 0x10 all affine 128 4"}, 32, 32)};
    auto out = regroup_waves(in, 32, 64, 64);
    const auto& w = out.at(0);
    REQUIRE(w.instrs.size() == 3);
    CHECK(w.instrs[0].mask == ~0ull);
    CHECK(w.instrs[1].mask == ~0ull);
    CHECK(w.instrs[2].mask == 0xffffffffull);
}

TEST_CASE("32 -> 64: an odd last wave has no partner", "[regroup]") {
    std::vector<WaveTrace> in = {wave_of({"ld lds 4 0x10 all affine 0 4"}, 32, 32),
                                 wave_of({"ld lds 4 0x10 all affine 128 4"}, 32, 32),
                                 wave_of({"ld lds 4 0x10 all affine 256 4"}, 32, 32)};
    auto out = regroup_waves(in, 32, 64, 96);
    REQUIRE(out.size() == 2);
    CHECK(out[1].instrs.at(0).mask == 0xffffffffull);
    CHECK(out[1].instrs.at(0).base == 256);
}

TEST_CASE("64 -> 32: each half keeps its lanes, empty halves skip memory instructions", "[regroup]") {
    std::vector<WaveTrace> in = {wave_of({"ld lds 4 0x10 all affine 0 4", "st lds 4 0x14 0x3 list 8 12", "compute 4",
                                          "ld global 8 0x18 0x100000001 list 0x500 0x900", "bar 0x20", "wait"},
                                         64, 64)};
    auto out = regroup_waves(in, 64, 32, 64);
    REQUIRE(out.size() == 2);
    const auto &lo = out[0], &hi = out[1];
    REQUIRE(lo.instrs.size() == 6);
    REQUIRE(hi.instrs.size() == 5);  // the 2-lane store lives in lanes 0-1 only
    CHECK(lo.instrs[0].mask == 0xffffffffull);
    CHECK(hi.instrs[0].mask == 0xffffffffull);
    CHECK(hi.instrs[0].base == 128);  // lane 32's address
    CHECK(addrs(lo, lo.instrs[1]) == std::vector<uint64_t>{8, 12});
    CHECK(hi.instrs[1].kind == RecKind::Compute);
    CHECK(addrs(lo, lo.instrs[3]) == std::vector<uint64_t>{0x500});
    CHECK(addrs(hi, hi.instrs[2]) == std::vector<uint64_t>{0x900});
    CHECK(hi.instrs[2].mask == 1);
    CHECK(hi.instrs[3].kind == RecKind::Barrier);
    CHECK(hi.instrs[4].kind == RecKind::Wait);
}

TEST_CASE("64 -> 32 -> 64 gives back the original instruction", "[regroup]") {
    std::vector<WaveTrace> in = {wave_of({"ld lds 4 0x10 all affine 0x40 12", "compute 2"}, 64, 64)};
    auto back = regroup_waves(regroup_waves(in, 64, 32, 64), 32, 64, 64);
    const auto& i = back.at(0).instrs.at(0);
    CHECK(i.mode == AddrMode::Affine);
    CHECK(i.mask == ~0ull);
    CHECK(i.base == 0x40);
    CHECK(i.stride == 12);
    CHECK(back[0].instrs.at(1).count == 2);
}

TEST_CASE("32 -> 64: long-latency counts merge like instruction counts", "[regroup]") {
    std::vector<WaveTrace> in = {wave_of({"compute 4 long 1", "bar 0x20", "compute 2"}, 32, 32),
                                 wave_of({"compute 3 long 2", "bar 0x20", "compute 2 long 1"}, 32, 32)};
    auto out = regroup_waves(in, 32, 64, 64);
    REQUIRE(out.size() == 1);
    const auto& w = out[0];
    REQUIRE(w.instrs.size() == 3);
    // Both halves issue together: the larger count, and the larger long-latency count.
    CHECK(w.instrs[0].count == 4);
    CHECK(w.instrs[0].long_count == 2);
    CHECK(w.instrs[2].count == 2);
    CHECK(w.instrs[2].long_count == 1);
}

TEST_CASE("32 -> 64: middle-latency counts merge too, never past the instructions", "[regroup]") {
    std::vector<WaveTrace> in = {wave_of({"compute 4 long 3", "bar 0x20", "compute 5 mid 2"}, 32, 32),
                                 wave_of({"compute 4 mid 3", "bar 0x20", "compute 3 long 1 mid 1"}, 32, 32)};
    auto out = regroup_waves(in, 32, 64, 64);
    REQUIRE(out.size() == 1);
    const auto& w = out[0];
    REQUIRE(w.instrs.size() == 3);
    // 4 instructions, 3 long: at most 1 middle, though one half had 3.
    CHECK(w.instrs[0].count == 4);
    CHECK(w.instrs[0].long_count == 3);
    CHECK(w.instrs[0].mid_count == 1);
    CHECK(w.instrs[2].count == 5);
    CHECK(w.instrs[2].long_count == 1);
    CHECK(w.instrs[2].mid_count == 2);
}

TEST_CASE("32 -> 64: an empty LDS instruction issues only where both halves had one", "[regroup]") {
    // Lanes 0-31 ran the guarded LDS of the first stretch with no lane on, lanes 32-63 with some (its
    // record issues it, partnerless); in the second stretch both halves had it off.
    std::vector<WaveTrace> in = {wave_of({"compute 3 lds 1", "bar 0x20", "compute 4 lds 2"}, 32, 32),
                                 wave_of({"compute 2", "ld lds 4 0x10 all affine 0 4", "bar 0x20", "compute 5 long 1 lds 3"}, 32, 32)};
    auto out = regroup_waves(in, 32, 64, 64);
    REQUIRE(out.size() == 1);
    const auto& w = out[0];
    REQUIRE(w.instrs.size() == 5);
    CHECK(w.instrs[0].count == 2);  // the upper half's stretch before its LDS issues with it
    CHECK(w.instrs[0].lds_count == 0);
    CHECK(w.instrs[1].kind == RecKind::Mem);
    CHECK(w.instrs[2].count == 3);  // the lower half's stretch, before the barrier both reach
    CHECK(w.instrs[2].lds_count == 0);
    CHECK(w.instrs[3].kind == RecKind::Barrier);
    CHECK(w.instrs[4].count == 5);
    CHECK(w.instrs[4].long_count == 1);
    CHECK(w.instrs[4].lds_count == 2);
}
