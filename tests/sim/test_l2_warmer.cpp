// Functional warming of the L2 (models/l2/l2_warmer.h), by hand: slices of one set of two 128-byte
// lines of four 32-byte sectors (LRU), channels 256 bytes apart (no hash), each access applied at
// once, with no clock running. What a warmed access leaves (lines, dirty sectors) and the DRAM
// traffic it stands for (fetched sectors, dirty sectors of victims) are worked out below.
#include <catch2/catch.hpp>
#include <systemc>

#include <cstdio>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "helpers.h"
#include "models/l2/l2_warmer.h"

using namespace dcusim;
using dcusim::test::wave_of;

namespace {

// Records the copies a home would drop.
struct Link : sc_core::sc_object, L2LinkIf {
    std::vector<std::tuple<uint32_t, uint64_t, uint32_t>> drops;  // home, line, side of the writer
    Link() : sc_core::sc_object(sc_core::sc_gen_unique_name("link")) {}
    void to_home(MemRequest&) override {}
    void drop_copies(uint32_t home, uint64_t line_no, uint32_t from_side) override { drops.push_back({home, line_no, from_side}); }
};

struct Warm {
    Clock clk{1000};
    Link link;
    std::vector<std::unique_ptr<L2Slice>> slices;
    L2Partitions sides;
    std::unique_ptr<L2Warmer> warmer;
    // `channels` slices; with `sides` > 1, that many sides that keep copies; an L1 load miss asks for
    // `l1_fetch` bytes; `store_copies`: whether a store keeps a copy on its side.
    Warm(uint32_t channels, uint32_t side_count, uint32_t cus, uint32_t l1_fetch = 32, bool store_copies = true) {
        sides.count = side_count;
        sides.channels = channels;
        sides.replicate = side_count > 1;
        sides.store_copies = store_copies;
        std::vector<L2Slice*> raw;
        for (uint32_t c = 0; c < channels; ++c) {
            L2Params p;
            p.geometry = CacheGeometry{256, 128, 2};  // one set of two lines
            p.sector_bytes = 32;
            p.channels = channels;
            p.interleave_bytes = 256;
            p.dirty_limit_sectors = 64;  // counted, never reached
            p.sides = sides;
            p.index = c;
            slices.push_back(std::make_unique<L2Slice>(sc_core::sc_gen_unique_name("l2"), p, clk));
            raw.push_back(slices.back().get());
        }
        warmer = std::make_unique<L2Warmer>(raw, ChannelMap(channels, 256, ChannelFold::none), sides, &link,
                                            L2Warmer::Geometry{128, 32, l1_fetch, cus});
    }
    void run(const std::vector<std::string>& lines) { warmer->workgroup({wave_of(lines)}); }
};

std::string to_hex(uint64_t v) {
    char s[24];
    std::snprintf(s, sizeof s, "%llx", (unsigned long long)v);
    return s;
}

}  // namespace

TEST_CASE("l2 warming: lines, dirty sectors and the DRAM traffic they stand for", "[l2][sample]") {
    Warm w(2, 1, 1);  // channel = (address / 256) mod 2
    // 32 lanes x 4 bytes from 0x0: line 0 (channel 0), its 4 sectors fetched: 128 bytes read.
    w.run({"ld global 4 0x10 0xffffffff affine 0x0 4"});
    CHECK(w.warmer->read_bytes() == 128);
    CHECK(w.slices[0]->valid_lines() == 1);
    // Again: a hit, nothing read.
    w.run({"ld global 4 0x10 0xffffffff affine 0x0 4"});
    CHECK(w.warmer->read_bytes() == 128);
    // 8 lanes x 4 bytes at 0x100 (line 2, channel 1) write sector 0 whole; one lane at 0x120 writes
    // sector 1 in part (dirty, not fetched): 2 dirty sectors, nothing read.
    w.run({"st global 4 0x20 0xff affine 0x100 4", "st global 4 0x30 0x1 affine 0x120 4"});
    CHECK(w.slices[1]->dirty_sectors() == 2);
    CHECK(w.warmer->read_bytes() == 128);
    // Channel 0: lines 4 (0x200) and 8 (0x400) fill the second way, then evict line 0 (clean).
    w.run({"ld global 4 0x10 0xffffffff affine 0x200 4", "ld global 4 0x10 0xffffffff affine 0x400 4"});
    CHECK(w.warmer->read_bytes() == 3 * 128);
    CHECK(w.warmer->written_bytes() == 0);
    // Channel 1: lines 6 (0x300) and 10 (0x500); line 2 is the older: its 2 dirty sectors are written.
    w.run({"ld global 4 0x10 0xffffffff affine 0x300 4", "ld global 4 0x10 0xffffffff affine 0x500 4"});
    CHECK(w.warmer->read_bytes() == 5 * 128);
    CHECK(w.warmer->written_bytes() == 64);
    CHECK(w.slices[1]->dirty_sectors() == 0);
    // Two listed lanes storing 8 bytes at 0x71c and 0x724 (line 14, channel 1): 4 bytes of sector 0
    // and 12 of sector 1, both in part: dirty, nothing fetched; line 6, clean, is evicted.
    w.run({"st global 8 0x40 0x3 list 0x71c 0x724"});
    CHECK(w.slices[1]->dirty_sectors() == 2);
    CHECK(w.warmer->written_bytes() == 64);
    CHECK(w.warmer->read_bytes() == 5 * 128);
    w.warmer->reset_traffic();
    CHECK(w.warmer->read_bytes() == 0);
    CHECK(w.warmer->written_bytes() == 0);
}

TEST_CASE("l2 warming: a CU's side keeps copies of lines homed on the other side", "[l2][sample]") {
    // 4 channels, 2 sides (channels 0-1 and 2-3; the mirror of channel 0 on side 1 is 2); CUs 0 and 1
    // take skipped workgroups in turn, CU 1 on side 1.
    Warm w(4, 2, 2);
    w.run({"ld global 4 0x10 0xffffffff affine 0x0 4"});  // CU 0, line 0 homed on channel 0: no copy
    CHECK(w.slices[0]->valid_lines() == 1);
    CHECK(w.slices[2]->valid_lines() == 0);
    CHECK(w.warmer->read_bytes() == 128);
    // CU 1 loads line 8 (0x400: channel 0): a copy at channel 2, the home fetches from DRAM once.
    w.run({"ld global 4 0x10 0xffffffff affine 0x400 4"});
    CHECK(w.slices[2]->valid_lines() == 1);
    CHECK(w.slices[0]->valid_lines() == 2);
    CHECK(w.warmer->read_bytes() == 2 * 128);
    // CU 0 stores to line 8: dirty at its home, the other side's copy dropped.
    w.run({"st global 4 0x20 0xffffffff affine 0x400 4"});
    CHECK(w.slices[0]->dirty_sectors() == 4);
    // CU 1's atomic on line 0 (present) goes to the home alone, fetches nothing, and drops the copies of
    // every side.
    w.run({"atom global 4 0x30 0x1 affine 0x0 4"});
    CHECK(w.slices[0]->dirty_sectors() == 5);
    CHECK(w.slices[2]->valid_lines() == 1);
    CHECK(w.warmer->read_bytes() == 2 * 128);
    using D = std::tuple<uint32_t, uint64_t, uint32_t>;
    CHECK(w.link.drops == std::vector<D>{{0, 8, 0}, {0, 0, 2}});
}

TEST_CASE("l2 warming: a store keeps a copy on its side only with l2.store_copies", "[l2][sample]") {
    // CU 1 (side 1) stores all 4 sectors of line 0 (homed on channel 0; its mirror on side 1 is channel 2):
    // dirty at the home either way; a clean copy at channel 2 only with store copies on.
    for (const bool on : {true, false}) {
        Warm w(4, 2, 2, 32, on);
        w.run({"compute 1"});  // CU 0's workgroup
        w.run({"st global 4 0x20 0xffffffff affine 0x0 4"});
        CHECK(w.slices[0]->dirty_sectors() == 4);
        CHECK(w.slices[2]->valid_lines() == (on ? 1u : 0u));
        CHECK(w.warmer->read_bytes() == 0);
    }
}

TEST_CASE("l2 warming: a load asks for the L1's whole fetch", "[l2][sample]") {
    // An L1 of 64-byte lines, not sectored: a one-word load at 0x44 (sector 2 of line 0) misses by
    // bytes 64-127, sectors 2 and 3: 64 bytes read. A store of that word asks for its sector alone.
    Warm w(1, 1, 1, 64);
    w.run({"ld global 4 0x10 0x1 affine 0x44 0"});
    CHECK(w.warmer->read_bytes() == 64);
    w.run({"ld global 4 0x10 0x1 affine 0x0 0"});  // sectors 0 and 1
    CHECK(w.warmer->read_bytes() == 128);
    w.run({"st global 4 0x20 0x1 affine 0x84 0"});  // line 1, sector 0 in part: dirty, nothing read
    CHECK(w.warmer->read_bytes() == 128);
    CHECK(w.slices[0]->dirty_sectors() == 1);
}

TEST_CASE("l2 warming: lanes of one contiguous range warm as the same lanes listed one by one", "[l2][sample]") {
    // The warmer takes a contiguous range line by line (L2Warmer::range); listed lanes go through its
    // per-lane gathering, and strided lanes by the shape of their instruction (L2Warmer::affine). Ranges
    // that start and end inside sectors and cross lines, a stride of 0 on lane 0, strided lanes, loads,
    // stores and atomics, on 2 sides: the same lines, sectors and traffic.
    struct Access {
        const char* op;
        unsigned bytes;
        uint64_t mask, base;
        int64_t stride;
    };
    const Access accesses[] = {{"ld", 4, 0xffffffff, 0x1c, 4},  {"st", 8, 0x3ff0, 0x104, 8},   {"atom", 4, 0xf0, 0x208, 4},
                               {"ld", 16, 0xff, 0x3f0, 16},     {"st", 4, 0x1, 0x47c, 0},       {"st", 2, 0xffff0000, 0x600, 2},
                               {"ld", 1, 0xffffffff, 0x7e1, 1}, {"st", 16, 0xffff, 0x1010, 16}, {"ld", 4, 0xffffffff, 0x400, 4},
                               // Strided lanes (L2Warmer::affine): gaps, lanes across lines, stores in part and
                               // whole, one shape at two offsets in the line and again at the first.
                               {"ld", 4, 0xffffffff, 0x81c, 16}, {"st", 4, 0xffffffff, 0xa00, 8},  {"st", 8, 0xf0f0, 0xc08, 24},
                               {"ld", 4, 0xffffffff, 0xe40, 16}, {"ld", 4, 0xffffffff, 0x101c, 16}, {"atom", 4, 0x5555, 0x1200, 12},
                               {"st", 16, 0xff, 0x1478, 40},     {"st", 16, 0x33, 0x1600, 16}};
    Warm ranged(4, 2, 2), listed(4, 2, 2);
    for (const Access& a : accesses) {
        char head[64];
        std::snprintf(head, sizeof head, "%s global %u 0x10 0x%llx ", a.op, a.bytes, (unsigned long long)a.mask);
        std::string affine = std::string(head) + "affine 0x" + to_hex(a.base) + " " + std::to_string(a.stride), list = std::string(head) + "list";
        for (unsigned lane = 0; lane < 64; ++lane)
            if (a.mask >> lane & 1) list += " 0x" + to_hex(a.base + uint64_t(int64_t(lane) * a.stride));
        // Then every line the lanes touched loaded whole: the sectors a store left valid show in what it fetches.
        const uint64_t lo = (a.base + uint64_t(int64_t(__builtin_ctzll(a.mask)) * a.stride)) / 128 * 128;
        const uint64_t hi = a.base + uint64_t(int64_t(63 - __builtin_clzll(a.mask)) * a.stride) + a.bytes;
        ranged.run({affine});
        listed.run({list});
        for (uint64_t line = lo; line < hi; line += 128) {
            ranged.run({"ld global 4 0x50 0xffffffff affine 0x" + to_hex(line) + " 4"});
            listed.run({"ld global 4 0x50 0xffffffff affine 0x" + to_hex(line) + " 4"});
        }
        INFO(affine);
        CHECK(ranged.warmer->read_bytes() == listed.warmer->read_bytes());
        CHECK(ranged.warmer->written_bytes() == listed.warmer->written_bytes());
        for (size_t c = 0; c < ranged.slices.size(); ++c) {
            CHECK(ranged.slices[c]->valid_lines() == listed.slices[c]->valid_lines());
            CHECK(ranged.slices[c]->dirty_sectors() == listed.slices[c]->dirty_sectors());
        }
        CHECK(ranged.link.drops == listed.link.drops);
    }
    CHECK(ranged.warmer->read_bytes() > 0);
    CHECK(ranged.warmer->written_bytes() > 0);
}

TEST_CASE("l2 warming: strided lanes take the sectors they touch, wherever the shape starts", "[l2][sample]") {
    Warm w(2, 1, 1);  // channel = (address / 256) mod 2
    // 8 lanes 16 bytes apart from 0x0: two a sector, line 0's 4 sectors read (channel 0).
    w.run({"ld global 4 0x10 0xff affine 0x0 16"});
    CHECK(w.warmer->read_bytes() == 128);
    // The same lanes from 0x150: line 2's sectors 2-3 (0x150, 0x160, 0x170) and line 3's sectors 0-2
    // (0x180 to 0x1c0), both on channel 1: 5 sectors read (the shape at line offset 0 would read 4).
    w.run({"ld global 4 0x10 0xff affine 0x150 16"});
    CHECK(w.warmer->read_bytes() == 128 + 160);
    CHECK(w.slices[1]->valid_lines() == 2);
    // Lanes 0-1 and 4-5 of 16 bytes from 0x400 (line 8, channel 0): sectors 0 and 2 written whole.
    w.run({"st global 16 0x20 0x33 affine 0x400 16"});
    CHECK(w.slices[0]->dirty_sectors() == 2);
    CHECK(w.warmer->read_bytes() == 288);
    // Loading the whole line fetches only sectors 1 and 3: the stored ones are valid.
    w.run({"ld global 4 0x30 0xffffffff affine 0x400 4"});
    CHECK(w.warmer->read_bytes() == 288 + 64);
    CHECK(w.slices[0]->valid_lines() == 2);
}

TEST_CASE("l2 warming: one active lane is warmed at its own address", "[l2][sample]") {
    // Lane 5 alone, 256 bytes a lane from 0x0: its word is at 0x500 (line 10, channel 1 of 2), not at
    // 0x14 (lane 5 of a 4-byte range: channel 0). One sector read.
    Warm w(2, 1, 1);
    w.run({"ld global 4 0x10 0x20 affine 0x0 256"});
    CHECK(w.slices[1]->valid_lines() == 1);
    CHECK(w.slices[0]->valid_lines() == 0);
    CHECK(w.warmer->read_bytes() == 32);
    // Lanes 2-3 alone, 4 bytes apart from 0x100 (channel 1): words at 0x108 and 0x10c, one sector.
    w.run({"st global 4 0x20 0xc affine 0x100 4"});
    CHECK(w.slices[1]->dirty_sectors() == 1);
    CHECK(w.slices[0]->dirty_sectors() == 0);
}
