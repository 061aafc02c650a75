// The L2 channel map (models/noc/channel_map.h): chunks of interleave_bytes go round the channels; with a
// side mask, the parity of the masked address bits picks the half, and the chunk goes round that half.
#include <catch2/catch.hpp>

#include "models/noc/channel_map.h"

using namespace dcusim;

TEST_CASE("channel map: chunks of 256 bytes go round 4 channels", "[channel_map]") {
    const ChannelMap m(4, 256, false);
    CHECK(m.channel_of(0) == 0);
    CHECK(m.channel_of(255) == 0);
    CHECK(m.channel_of(256) == 1);
    CHECK(m.channel_of(0x8000) == 0);  // chunk 128
    CHECK(m.channel_of(0x8300) == 3);
    CHECK(m.run_channels() == 4);
}

// Mask bits 12 and 15: side 1 (channels 2-3) where exactly one of them is set; within a side, chunk mod 2.
TEST_CASE("channel map: the parity of the side bits picks the half of the channels", "[channel_map]") {
    const ChannelMap m(4, 256, false, (1u << 12) | (1u << 15));
    CHECK(m.channel_of(0) == 0);
    CHECK(m.channel_of(0x100) == 1);
    CHECK(m.channel_of(0x200) == 0);
    CHECK(m.channel_of(0x8000) == 2);   // bit 15
    CHECK(m.channel_of(0x1100) == 3);   // bit 12, odd chunk
    CHECK(m.channel_of(0x9000) == 0);   // bits 12 and 15
    CHECK(m.channel_of(0x9100) == 1);
    CHECK(m.run_channels() == 2);
}

TEST_CASE("channel map: one channel takes every address, with or without side bits", "[channel_map]") {
    for (uint64_t mask : {uint64_t(0), uint64_t(1) << 15}) {
        const ChannelMap m(1, 256, true, mask);
        CHECK(m.channel_of(0x8000) == 0);
        CHECK(m.channel_of(0x12345678) == 0);
    }
}
