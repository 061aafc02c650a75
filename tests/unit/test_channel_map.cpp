// The L2 channel map (models/noc/channel_map.h): chunks of interleave_bytes go round the channels; with a
// side mask, the parity of the masked address bits picks the half, and the chunk goes round that half;
// with a chunk mask, the parity of its bits flips the chunk number's lowest bit first.
#include <algorithm>
#include <vector>

#include <catch2/catch.hpp>

#include "helpers.h"
#include "models/cache/sector_tags.h"
#include "models/noc/channel_map.h"
#include "sim/preset.h"

using namespace dcusim;

TEST_CASE("channel map: chunks of 256 bytes go round 4 channels", "[channel_map]") {
    const ChannelMap m(4, 256, ChannelFold::none);
    CHECK(m.channel_of(0) == 0);
    CHECK(m.channel_of(255) == 0);
    CHECK(m.channel_of(256) == 1);
    CHECK(m.channel_of(0x8000) == 0);  // chunk 128
    CHECK(m.channel_of(0x8300) == 3);
    CHECK(m.run_channels() == 4);
}

// Mask bits 12 and 15: side 1 (channels 2-3) where exactly one of them is set; within a side, chunk mod 2.
TEST_CASE("channel map: the parity of the side bits picks the half of the channels", "[channel_map]") {
    const ChannelMap m(4, 256, ChannelFold::none, (1u << 12) | (1u << 15));
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
        const ChannelMap m(1, 256, ChannelFold::xor_digits, mask);
        CHECK(m.channel_of(0x8000) == 0);
        CHECK(m.channel_of(0x12345678) == 0);
    }
}

// Chunk mask bit 8 with 512-byte chunks: chunk = addr / 512, its lowest bit flipped where address bit 8
// is set, so of each kilobyte the 256-byte quarters 0 and 3 share a channel, and 1 and 2.
TEST_CASE("channel map: a chunk mask pairs the quarters of each kilobyte crosswise", "[channel_map]") {
    const ChannelMap m(4, 512, ChannelFold::none, 0, uint64_t(1) << 8);
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
    const ChannelMap high(4, 256, ChannelFold::none, 0, uint64_t(1) << 12);
    CHECK(high.channel_of(0x1000) == 1);
    CHECK(high.channel_of(0x1100) == 0);
    CHECK(ChannelMap(4, 256, ChannelFold::none).channel_of(0x1000) == 0);
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

TEST_CASE("bit swaps: pairs of bits exchanged, and the same in line numbers", "[channel_map]") {
    BitSwaps s;
    s.add(8, 9);
    CHECK(s.apply(0x100) == 0x200);
    CHECK(s.apply(0x200) == 0x100);
    CHECK(s.apply(0x3ff) == 0x3ff);  // both set: nothing moves
    CHECK(s.apply(0x1080) == 0x1080);
    CHECK(s.in_units_of(7).apply(2) == 4);  // 128-byte lines: address bits 8 and 9 are line bits 1 and 2
    CHECK(BitSwaps{}.apply(0x300) == 0x300);
}

// Bits 8 and 9 exchanged, then 512-byte chunks over 4 channels: of each kilobyte, the 256-byte quarters
// 0 and 2 go to one channel and 1 and 3 to the next (the H100's slice pairs, results/h100-slicepairs).
TEST_CASE("channel map: swapped bits pair the quarters of each kilobyte 0 with 2, 1 with 3", "[channel_map]") {
    BitSwaps s;
    s.add(8, 9);
    const ChannelMap m(4, 512, ChannelFold::none, 0, 0, s);
    CHECK(m.channel_of(0x000) == 0);
    CHECK(m.channel_of(0x100) == 1);
    CHECK(m.channel_of(0x200) == 0);
    CHECK(m.channel_of(0x300) == 1);
    CHECK(m.channel_of(0x400) == 2);
    CHECK(m.channel_of(0x600) == 2);
    CHECK(m.channel_of(0x500) == 3);
    CHECK(ChannelMap(4, 512, ChannelFold::none).channel_of(0x100) == 0);
}

// A slice of 2 channels' 16 KiB (128 lines of 128 bytes, 4 ways, 32 sets) takes the 128 lines its channel
// gets of the first 32 KiB, with the map's swaps: its set index follows them, so no set overflows. Picked
// from the line numbers as they are, the set index would put lines 0 and 4 (quarters 0 and 2 of a
// kilobyte) in one set and leave half the sets empty: 64 of the 128 lines would be evicted.
TEST_CASE("sector tags: the set index follows the channel map's bit swaps", "[channel_map]") {
    BitSwaps s;
    s.add(8, 9);
    const ChannelMap m(2, 512, ChannelFold::none, 0, 0, s);
    const CacheGeometry g{16384, 128, 4};
    SectorTags with(g, "lru", 4, 2, s.in_units_of(7)), without(g, "lru", 4, 2);
    uint32_t evicted_with = 0, evicted_without = 0, lines = 0;
    for (uint64_t line = 0; line < 256; ++line) {
        if (m.channel_of(line * 128) != 0) continue;
        ++lines;
        evicted_with += with.install(line, 1, 0).valid;
        evicted_without += without.install(line, 1, 0).valid;
    }
    CHECK(lines == 128);
    CHECK(evicted_with == 0);
    CHECK(evicted_without == 64);
}

TEST_CASE("channel map: swap bits must be pairs of distinct bits above a line", "[channel_map]") {
    auto load = [](std::initializer_list<std::pair<const char*, const char*>> kv) { return preset_registry::load(test::preset("dcu-z100", kv)); };
    CHECK_NOTHROW(load({{"l2.interleave_bytes", "512"}, {"l2.swap_bits", "8,9"}}));
    CHECK_THROWS_WITH(load({{"l2.swap_bits", "8"}}), Catch::Contains("l2.swap_bits") && Catch::Contains("even count"));
    CHECK_THROWS_WITH(load({{"l2.swap_bits", "8,9,9,10"}}), Catch::Contains("l2.swap_bits") && Catch::Contains("bit 9 twice"));
    CHECK_THROWS_WITH(load({{"l2.swap_bits", "3,9"}}), Catch::Contains("l2.swap_bits") && Catch::Contains("within a line"));
    const Preset p = load({{"l2.interleave_bytes", "512"}, {"l2.swap_bits", "8,9"}});
    CHECK(p.noc.channel_map().channel_of(0x200) == 0);  // the crossbar's map swaps: quarter 2 with quarter 0
    CHECK(p.l2.swaps.apply(0x100) == 0x200);             // and the slices get the swaps for their sets
}

// Three channels, 256-byte chunks. XOR fold: chunk 3 (digits 1 0) 3 ^ 1 = 2, chunk 4 4 ^ 1 = 5 -> 2,
// chunk 5 5 ^ 1 = 4 -> 1: the run of chunks 3-5 puts two on channel 2 and none on 0. Sum fold: 3 + 1 = 4
// -> 1, 5 -> 2, 6 -> 0: each channel once. Chunk 9 (digits 1 0 0): 9 + 3 + 1 = 13 -> 1.
TEST_CASE("channel map: the sum fold puts each run of chunks on every channel once, the XOR fold need not",
          "[channel_map]") {
    const ChannelMap x(3, 256, ChannelFold::xor_digits), s(3, 256, ChannelFold::sum_digits);
    CHECK(x.channel_of(0x300) == 2);
    CHECK(x.channel_of(0x400) == 2);
    CHECK(x.channel_of(0x500) == 1);
    CHECK(s.channel_of(0x300) == 1);
    CHECK(s.channel_of(0x400) == 2);
    CHECK(s.channel_of(0x500) == 0);
    CHECK(s.channel_of(0x900) == 1);
    // 96 channels (the H200 preset's count) over the first 64 MiB: with the sum fold every run of 96
    // chunks covers all 96 channels; with the XOR fold some do not.
    const ChannelMap x96(96, 256, ChannelFold::xor_digits), s96(96, 256, ChannelFold::sum_digits);
    uint32_t short_runs_x = 0, short_runs_s = 0;
    for (uint64_t run = 0; run < (uint64_t(64) << 20) / 256 / 96; ++run) {
        std::vector<bool> seen_x(96), seen_s(96);
        for (uint64_t c = run * 96; c < run * 96 + 96; ++c) {
            seen_x[x96.channel_of(c * 256)] = true;
            seen_s[s96.channel_of(c * 256)] = true;
        }
        short_runs_x += std::count(seen_x.begin(), seen_x.end(), false) > 0;
        short_runs_s += std::count(seen_s.begin(), seen_s.end(), false) > 0;
    }
    CHECK(short_runs_s == 0);
    CHECK(short_runs_x > 0);
    // The key: chunk 97 (digits 1 1) is 97 + 1 = 98 -> 2 summed, 97 ^ 1 = 96 -> 0 XORed (the preset's).
    CHECK(preset_registry::load(test::preset("h200", {{"l2.fold", "sum"}})).noc.channel_map().channel_of(97 * 256) == 2);
    CHECK(preset_registry::load(test::preset("h200", {})).noc.channel_map().channel_of(97 * 256) == 0);
}
