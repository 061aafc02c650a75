// The coalescing table of seed 002 on the H200 preset (32 lanes, 128-byte
// lines, 32-byte sectors), and GCN's 64-byte lines on the Z100 preset.
#include <catch2/catch.hpp>

#include "helpers.h"
#include "models/l1/coalescer.h"
#include "sim/preset.h"

using namespace dcusim;
using dcusim::test::wave_of;

namespace {
std::vector<LineAccess> lines(const Preset& p, const std::string& stmt) {
    auto w = wave_of({stmt}, p.cu.wave_size, p.cu.wave_size);
    std::vector<LineAccess> out;
    coalesce(w.instrs.at(0), w, p.l1.geometry.line_bytes, p.l1.sector_bytes, out);
    return out;
}
unsigned sectors(const std::vector<LineAccess>& v) {
    unsigned n = 0;
    for (const auto& l : v) n += unsigned(__builtin_popcount(l.sectors));
    return n;
}
}  // namespace

TEST_CASE("H200: consecutive 4-byte words are 1 line and 4 sectors", "[coalescer]") {
    Preset p = preset_registry::load(test::preset("h200"));
    auto l = lines(p, "ld global 4 0 all affine 0x1000 4");
    CHECK(l.size() == 1);
    CHECK(sectors(l) == 4);
    CHECK(l[0].line == 0x1000);
    CHECK(l[0].sectors == 0xf);
}

TEST_CASE("H200: stride 2, 4 and 32 words are 2, 4 and 32 lines", "[coalescer]") {
    Preset p = preset_registry::load(test::preset("h200"));
    auto s2 = lines(p, "ld global 4 0 all affine 0x1000 8");
    CHECK(s2.size() == 2);
    CHECK(sectors(s2) == 8);
    auto s4 = lines(p, "ld global 4 0 all affine 0x1000 16");
    CHECK(s4.size() == 4);
    CHECK(sectors(s4) == 16);
    auto s32 = lines(p, "ld global 4 0 all affine 0x1000 128");
    CHECK(s32.size() == 32);
    CHECK(sectors(s32) == 32);  // one sector each
}

TEST_CASE("H200: misaligned and partial accesses", "[coalescer]") {
    Preset p = preset_registry::load(test::preset("h200"));
    auto mis = lines(p, "ld global 4 0 all affine 0x1040 4");  // bytes 0x1040..0x10bf: two lines, 2 + 2 sectors
    CHECK(mis.size() == 2);
    CHECK(mis[0].sectors == 0xc);
    CHECK(mis[1].sectors == 0x3);
    auto one = lines(p, "ld global 4 0 0x1 affine 0x1000 4");
    CHECK(one.size() == 1);
    CHECK(one[0].sectors == 0x1);
    auto same = lines(p, "ld global 4 0 all affine 0x1000 0");
    CHECK(same.size() == 1);
    CHECK(same[0].sectors == 0x1);
}

TEST_CASE("Z100: 64 lanes of 16 bytes are 16 lines of 64 bytes", "[coalescer]") {
    Preset p = preset_registry::load(test::preset("dcu-z100"));
    auto l = lines(p, "ld global 16 0 all affine 0 16");
    CHECK(l.size() == 16);
    CHECK(l[15].line == 960);
}

// Contiguous affine lanes take a byte-range walk, anything else the lane walk:
// both must give the lines and sectors worked out here.
TEST_CASE("H200: overlapping, partial and holed lane ranges", "[coalescer]") {
    Preset p = preset_registry::load(test::preset("h200"));
    // Lanes 4..7, 8 bytes every 8: bytes 0x1020..0x103f, sector 1 of one line.
    auto part = lines(p, "ld global 8 0 0xf0 affine 0x1000 8");
    REQUIRE(part.size() == 1);
    CHECK(part[0].line == 0x1000);
    CHECK(part[0].sectors == 0x2);
    // 16-byte lanes every 4 bytes overlap: lane 31 starts at 0x10f0 + 124 = 0x116c, so bytes 0x10f0..0x117b.
    auto over = lines(p, "ld global 16 0 all affine 0x10f0 4");
    REQUIRE(over.size() == 2);
    CHECK(over[0].line == 0x1080);
    CHECK(over[0].sectors == 0x8);  // 0x10f0 is in sector 3
    CHECK(over[1].line == 0x1100);
    CHECK(over[1].sectors == 0xf);  // offsets 0x00..0x7b: all four sectors
    // Lanes 0 and 31 only (a hole): 0x2000 and 0x2000 + 31 * 4 = 0x207c, one line, sectors 0 and 3.
    auto holed = lines(p, "ld global 4 0 0x80000001 affine 0x2000 4");
    REQUIRE(holed.size() == 1);
    CHECK(holed[0].sectors == 0x9);
    // The same range listed lane by lane: the lane walk, same answer as the range walk.
    auto listed = lines(p, "ld global 8 0 0xf0 list 0x1020 0x1028 0x1030 0x1038");
    REQUIRE(listed.size() == 1);
    CHECK(listed[0].sectors == 0x2);
}
