// The DRAM address map alone: from the least significant end, the byte in a 256-byte chunk,
// the channel (64), the bank group (4), the bank (4), the chunk in the row (1024-byte rows:
// 4 chunks of 8 bursts of 32 bytes), the row. Decoded by hand.
#include <catch2/catch.hpp>

#include "models/dram/address_map.h"

using namespace dcusim;

namespace {
void check(const DramAddress& a, uint32_t channel, uint32_t group, uint32_t bank, uint64_t row, uint32_t column) {
    CHECK(a.channel == channel);
    CHECK(a.bank_group == group);
    CHECK(a.bank == bank);
    CHECK(a.row == row);
    CHECK(a.column == column);
}
}  // namespace

TEST_CASE("DRAM address map: each field from its own bits, by hand", "[dram]") {
    const AddressMap m{DramParams{}};
    check(m.map(0), 0, 0, 0, 0, 0);
    check(m.map(256 + 7 * 32), 1, 0, 0, 0, 7);    // chunk 1: the next channel; burst 7 of the chunk
    check(m.map(64 * 256), 0, 1, 0, 0, 0);        // past every channel: the next bank group
    check(m.map(64 * 4 * 256), 0, 0, 1, 0, 0);    // past every group: the next bank
    check(m.map(64 * 4 * 4 * 256), 0, 0, 0, 0, 8);  // past every bank: the row's next chunk (bursts 8-15)
    check(m.map(uint64_t(1) << 20), 0, 0, 0, 1, 0);   // past the row's 4 chunks: the next row
    // Row 3, chunk 2 of the row, bank 3, group 2, channel 5, byte 199 of the chunk (burst 6).
    const uint64_t a = 3 * (uint64_t(1) << 20) + 2 * 262144 + 3 * 65536 + 2 * 16384 + 5 * 256 + 6 * 32 + 7;
    check(m.map(a), 5, 2, 3, 3, 2 * 8 + 6);
}

TEST_CASE("DRAM address map: counts that are not powers of two", "[dram]") {
    DramParams p;
    p.channels = 3;
    p.bank_groups = 3;
    const AddressMap m{p};
    check(m.map(4 * 256), 1, 1, 0, 0, 0);           // chunk 4: channel 4 mod 3, then group 1 mod 3
    check(m.map(3 * 3 * 256), 0, 0, 1, 0, 0);       // chunk 9: the first of bank 1
    check(m.map(3 * 3 * 4 * 256 + 255), 0, 0, 0, 0, 8 + 7);  // chunk 36: the row's next chunk, its last burst
}

TEST_CASE("DRAM address map: one chunk is one channel, bank and row", "[dram]") {
    const AddressMap m{DramParams{}};
    CHECK(m.same_chunk(0x100, 0x1ff));
    CHECK_FALSE(m.same_chunk(0x1ff, 0x200));
}
