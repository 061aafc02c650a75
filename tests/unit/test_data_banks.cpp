// The L1's data stage alone (models/l1/data_banks.h), by hand: NVIDIA's 16 banks of 8 bytes
// (word = address / 8, bank = word mod 16); a load costs the most distinct words one bank reads.
#include <catch2/catch.hpp>

#include "helpers.h"
#include "models/l1/data_banks.h"

using namespace dcusim;
using dcusim::test::wave_of;

namespace {
uint32_t cycles(DataBanks& b, const std::string& stmt) {
    auto w = wave_of({stmt}, 32, 32);
    return b.cycles(w.instrs.at(0), w, [](unsigned, uint64_t a) { return a; });
}
}  // namespace

TEST_CASE("L1 data banks: contiguous words take one cycle, one offset of 32 lines 32", "[l1]") {
    DataBanks b(16, 8);
    // 32 lanes x 4 bytes = 128 bytes: words 0..15, one per bank.
    CHECK(cycles(b, "ld global 4 0 all affine 0x1000 4") == 1);
    // A stride of 128 bytes: every lane's word is a multiple of 16, all in bank 0.
    CHECK(cycles(b, "ld global 4 0 all affine 0x1000 128") == 32);
    // A stride of 8 bytes: 32 words over the 16 banks, 2 each.
    CHECK(cycles(b, "ld global 4 0 all affine 0x1000 8") == 2);
    // 8-byte lanes 16 bytes apart: even words only, 8 banks of 4 words each.
    CHECK(cycles(b, "ld global 8 0 all affine 0x1000 16") == 4);
}

TEST_CASE("L1 data banks: lanes reading one word share it and a lane across two words reads both", "[l1]") {
    DataBanks b(16, 8);
    CHECK(cycles(b, "ld global 4 0 all affine 0x1000 0") == 1);
    // 16-byte lanes 128 bytes apart: words 16k and 16k+1, banks 0 and 1, 32 words each.
    CHECK(cycles(b, "ld global 16 0 all affine 0x1000 128") == 32);
    // One lane, misaligned over words 0 and 1 (bytes 4..11): one word in each of two banks.
    CHECK(cycles(b, "ld global 8 0 0x1 affine 0x1004 0") == 1);
}

namespace {
// The global-memory entry (contiguous lanes counted from their byte range).
uint32_t global_cycles(DataBanks& b, const std::string& stmt) {
    auto w = wave_of({stmt}, 32, 32);
    return b.cycles(w.instrs.at(0), w);
}
}  // namespace

TEST_CASE("L1 data banks: contiguous lanes are counted from their byte range, as lane by lane", "[l1]") {
    DataBanks b(16, 8);
    // 32 lanes x 8 bytes = 256 bytes: words 0..31, two in each bank.
    CHECK(global_cycles(b, "ld global 8 0 all affine 0x1000 8") == 2);
    // 32 lanes x 4 bytes from byte 4: bytes 4..131 are words 0..16, bank 0 reads words 0 and 16.
    CHECK(global_cycles(b, "ld global 4 0 all affine 0x1004 4") == 2);
    // 16-byte lanes overlapping by 8 (stride 8): bytes 0..263, words 0..32: bank 0 reads 0, 16 and 32.
    CHECK(global_cycles(b, "ld global 16 0 all affine 0x1000 8") == 3);
    // Lanes 4..11 only, 4 bytes each from 0x1000: bytes 16..47, words 2..5, one each.
    CHECK(global_cycles(b, "ld global 4 0 0xff0 affine 0x1000 4") == 1);
    // Not contiguous (a hole at lane 1) or spread out: lane by lane, as before.
    CHECK(global_cycles(b, "ld global 4 0 0xfffffffd affine 0x1000 128") == 31);
    CHECK(global_cycles(b, "ld global 4 0 all affine 0x1000 128") == 32);
    for (const char* s : {"ld global 4 0 all affine 0x1004 4", "ld global 16 0 all affine 0x1000 8", "ld global 8 0 all affine 0x1000 8",
                          "ld global 4 0 0xff0 affine 0x1000 4", "ld global 4 0 all affine 0x1000 0"})
        CHECK(global_cycles(b, s) == cycles(b, s));
}
