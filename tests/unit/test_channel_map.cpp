// The L2 channel map (models/noc/channel_map.h): chunks of interleave_bytes go round the channels; with a
// side mask, the parity of the masked address bits picks the half, and the chunk goes round that half;
// with a chunk mask, the parity of its bits flips the chunk number's lowest bit first.
#include <catch2/catch.hpp>

#include "helpers.h"
#include "models/noc/channel_map.h"
#include "sim/preset.h"

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

// Chunk mask bit 8 with 512-byte chunks: chunk = addr / 512, its lowest bit flipped where address bit 8
// is set, so of each kilobyte the 256-byte quarters 0 and 3 share a channel, and 1 and 2.
TEST_CASE("channel map: a chunk mask pairs the quarters of each kilobyte crosswise", "[channel_map]") {
    const ChannelMap m(4, 512, false, 0, uint64_t(1) << 8);
    CHECK(m.channel_of(0x000) == 0);  // chunk 0
    CHECK(m.channel_of(0x0ff) == 0);
    CHECK(m.channel_of(0x100) == 1);  // chunk 0, bit 8: chunk 1
    CHECK(m.channel_of(0x200) == 1);  // chunk 1
    CHECK(m.channel_of(0x300) == 0);  // chunk 1, bit 8: chunk 0
    CHECK(m.channel_of(0x400) == 2);  // chunk 2
    CHECK(m.channel_of(0x500) == 3);
    CHECK(m.channel_of(0x600) == 3);
    CHECK(m.channel_of(0x700) == 2);
    // A bit above the chunk's: 256-byte chunks, bit 12 flips chunk 16 to 17.
    const ChannelMap high(4, 256, false, 0, uint64_t(1) << 12);
    CHECK(high.channel_of(0x1000) == 1);
    CHECK(high.channel_of(0x1100) == 0);
    CHECK(ChannelMap(4, 256, false).channel_of(0x1000) == 0);
}

TEST_CASE("channel map: a chunk mask that names its own bit, a bit within a line or an odd interleave is an error",
          "[channel_map]") {
    auto load = [](std::initializer_list<std::pair<const char*, const char*>> kv) { return preset_registry::load(test::preset("dcu-z100", kv)); };
    CHECK_NOTHROW(load({{"l2.interleave_bytes", "512"}, {"l2.chunk_xor_bits", "8,12"}}));
    CHECK_THROWS_WITH(load({{"l2.interleave_bytes", "512"}, {"l2.chunk_xor_bits", "9"}}),
                      Catch::Contains("l2.chunk_xor_bits") && Catch::Contains("the bit it flips"));
    CHECK_THROWS_WITH(load({{"l2.interleave_bytes", "512"}, {"l2.chunk_xor_bits", "3"}}),
                      Catch::Contains("l2.chunk_xor_bits") && Catch::Contains("within a line"));
    CHECK_THROWS_WITH(load({{"l2.interleave_bytes", "384"}, {"l2.chunk_xor_bits", "8"}}),
                      Catch::Contains("l2.chunk_xor_bits") && Catch::Contains("power-of-two"));
    CHECK_THROWS_WITH(load({{"l2.channels", "15"}, {"l2.interleave_bytes", "512"}, {"l2.chunk_xor_bits", "8"}}),
                      Catch::Contains("l2.chunk_xor_bits") && Catch::Contains("even number of channels"));
}

// The key reaches the crossbar's map: address 0x100 (bit 8) is chunk 0's pair, chunk 1.
TEST_CASE("channel map: the preset's chunk mask is the crossbar's", "[channel_map]") {
    const Preset p = preset_registry::load(test::preset("dcu-z100", {{"l2.interleave_bytes", "512"}, {"l2.chunk_xor_bits", "8"}}));
    CHECK(p.noc.channel_map().channel_of(0x100) == 1);
    CHECK(p.noc.channel_map().channel_of(0x300) == 0);
    const Preset plain = preset_registry::load(test::preset("dcu-z100", {{"l2.interleave_bytes", "512"}}));
    CHECK(plain.noc.channel_map().channel_of(0x100) == 0);
}
