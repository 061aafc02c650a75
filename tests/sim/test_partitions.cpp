// A partitioned L2 (l2.partitions, l2.far_latency): channels split into sides
// in index order, CUs in turn; a miss for a line homed on the other side costs
// 2 x far_latency more (the link, both ways); a hit costs nothing more.
// dcu-z100: 64 CUs, 16 channels interleaved by 256 bytes, no hash, so with 2
// sides CU 0, which runs each of these one-workgroup kernels (every kernel
// starts at CU 0), is on side 0; channels 0-7 are side 0.
#include <catch2/catch.hpp>

#include "helpers.h"
#include "sim/preset.h"
#include "traces/tools/generators.h"

using namespace dcusim;

namespace {

constexpr uint64_t kNear = 0x100000000ull;  // channel 0
constexpr uint64_t kFar = kNear + 8 * 256;  // channel 8

// Four kernels of one load each: the near line (a DRAM miss, then an L2 hit),
// then the far line (the same). The memory clock runs at the core clock, so
// no clock crossing rounds, and refresh is off.
RunResult four_loads(const char* sides) {
    Config cfg = test::preset("dcu-z100", {{"dram.tREFI", "0"}, {"dram.clock_mhz", "1500"}, {"l2.partitions", sides},
                                           {"l2.far_latency", "100"}});
    auto path = test::write_generated("partitions.dctrace", 64, [&](trace::RecordSink& s) {
        for (uint64_t addr : {kNear, kNear, kFar, kFar}) trace::gen_chase(s, 64, 64, 1, 64, addr);
    });
    return test::run_files(cfg, {path});
}

}  // namespace

TEST_CASE("L2 partitions: a far miss costs 2 x far_latency more, a far hit nothing", "[sim][partitions]") {
    const RunResult r = four_loads("2");
    CHECK(test::stat(r, "l2.far_fetches", 0) == 0);
    CHECK(test::stat(r, "l2.far_fetches", 2) == 1);
    CHECK(test::stat(r, "cycles", 2) == test::stat(r, "cycles", 0) + 200);
    // The second load of each line hits in the L2 (the L1 is emptied at a launch): no link.
    CHECK(test::stat(r, "l2.hits", 3) == 1);
    CHECK(test::stat(r, "l2.far_fetches", 3) == 0);
    CHECK(test::stat(r, "cycles", 3) == test::stat(r, "cycles", 1));
}

TEST_CASE("L2 partitions: one side never crosses the link", "[sim][partitions]") {
    const RunResult r = four_loads("1");
    CHECK(test::stat(r, "l2.far_fetches", 2) == 0);
    CHECK(test::stat(r, "cycles", 2) == test::stat(r, "cycles", 0));
}

TEST_CASE("L2 partitions: more sides than channels is an error naming the key", "[sim][partitions]") {
    Config cfg = test::preset("dcu-z100", {{"l2.partitions", "32"}});
    CHECK_THROWS_WITH(preset_registry::load(cfg), Catch::Contains("l2.partitions"));
}

// l2.side_bits: the parity of address bits 12 and 15 picks the home side; bits 8-11 then pick one of the side's
// 8 channels. Four one-load kernels on CU 0 (side 0), each line on a DRAM channel of its own (so each is a
// row miss in an idle bank): A (no bit), B (bit 11: channel 8, side 1 in index order, side 0 here),
// C (bit 15: side 1, far), D (bits 12 and 15: side 0).
TEST_CASE("L2 side bits: the parity of the named bits picks a line's home side", "[sim][partitions]") {
    Config cfg = test::preset("dcu-z100", {{"dram.tREFI", "0"}, {"dram.clock_mhz", "1500"}, {"l2.partitions", "2"},
                                           {"l2.far_latency", "100"}, {"l2.side_bits", "12,15"}});
    auto path = test::write_generated("side_bits.dctrace", 64, [&](trace::RecordSink& s) {
        for (uint64_t addr : {kNear, kNear + 0x800, kNear + 0x8100, kNear + 0x9200}) trace::gen_chase(s, 64, 64, 1, 64, addr);
    });
    const RunResult r = test::run_files(cfg, {path});
    for (size_t k : {0, 1, 3}) CHECK(test::stat(r, "l2.far_fetches", k) == 0);
    CHECK(test::stat(r, "l2.far_fetches", 2) == 1);
    CHECK(test::stat(r, "cycles", 1) == test::stat(r, "cycles", 0));
    CHECK(test::stat(r, "cycles", 2) == test::stat(r, "cycles", 0) + 200);
    CHECK(test::stat(r, "cycles", 3) == test::stat(r, "cycles", 0));
}

TEST_CASE("L2 side bits: one side or a bit within a line is an error naming the key", "[sim][partitions]") {
    Config one = test::preset("dcu-z100", {{"l2.side_bits", "15"}});
    CHECK_THROWS_WITH(preset_registry::load(one), Catch::Contains("l2.side_bits") && Catch::Contains("l2.partitions = 2"));
    Config within = test::preset("dcu-z100", {{"l2.partitions", "2"}, {"l2.side_bits", "3"}});
    CHECK_THROWS_WITH(preset_registry::load(within), Catch::Contains("l2.side_bits") && Catch::Contains("within a line"));
    CHECK_THROWS_WITH(test::preset("dcu-z100", {{"l2.partitions", "2"}, {"l2.side_bits", "64"}}),
                      Catch::Contains("l2.side_bits") && Catch::Contains("at most 63"));
}

// l2.replicate: each side keeps copies of the lines its CUs use. Two CUs (CU 0 on side 0, CU 1 on side 1;
// even kernels run on CU 0, odd ones on CU 1), so who reads and who writes is known.
namespace {

constexpr uint64_t kFarLine = kFar;  // homed on channel 8: side 1

std::string one_access(const char* op, uint64_t addr) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s global 4 0x10 0x1 affine 0x%llx 4\nwait\n", op, (unsigned long long)addr);  // lane 0
    return buf;
}

RunResult replicated(const std::vector<std::string>& kernels, const char* store_copies = "on", const char* link_rate = "0") {
    Config cfg = test::preset("dcu-z100", {{"dram.tREFI", "0"}, {"dram.clock_mhz", "1500"}, {"cu.count", "2"},
                                           {"l2.partitions", "2"}, {"l2.replicate", "on"}, {"l2.far_latency", "100"},
                                           {"l2.hit_latency", "60"}, {"l2.store_copies", store_copies},
                                           {"l2.link_sectors_per_cycle", link_rate}});
    std::string text = "dcusim-trace 1\nwave_size 64\n";
    // Every kernel's first workgroup goes to CU 0; an odd kernel's access is its second workgroup's, on CU 1.
    for (size_t k = 0; k < kernels.size(); ++k)
        text += "kernel k" + std::to_string(k) + (k % 2 ? " grid 2 1 1 block 64 1 1\nwave 0 0\ncompute 1\nwave 1 0\n"
                                                         : " grid 1 1 1 block 64 1 1\nwave 0 0\n") +
                kernels[k] + "end\n";
    return test::run_files(cfg, {test::write_temp("replicate.trace", text)});
}

}  // namespace

TEST_CASE("L2 partitions: a kernel's first workgroup runs on CU 0 whatever ran before", "[sim][partitions]") {
    // Kernel 0's three idle workgroups take CUs 0, 1, 0; kernel 1's one load of a side-0 line must still
    // come from CU 0 (side 0), as the H200 starts every launch on the same SMs: no far fetch. Started
    // where kernel 0 stopped, it would run on CU 1 and cross the link.
    Config cfg = test::preset("dcu-z100", {{"cu.count", "2"}, {"l2.partitions", "2"}, {"l2.far_latency", "100"}});
    const std::string text = "dcusim-trace 1\nwave_size 64\nkernel idle grid 3 1 1 block 64 1 1\n"
                             "wave 0 0\ncompute 1\nwave 1 0\ncompute 1\nwave 2 0\ncompute 1\nend\n"
                             "kernel one grid 1 1 1 block 64 1 1\nwave 0 0\n" + one_access("ld", kNear) + "end\n";
    const RunResult r = test::run_files(cfg, {test::write_temp("first_cu.trace", text)});
    CHECK(test::stat(r, "l2.misses", 1) == 1);
    CHECK(test::stat(r, "l2.far_fetches", 1) == 0);
}

TEST_CASE("L2 copies per side: a far line is fetched over the link once, then hits on the CU's side", "[sim][partitions]") {
    const std::string idle = "compute 1\n";
    // Even kernels run on CU 0 (side 0), odd ones on CU 1 (side 1).
    const RunResult r = replicated({one_access("ld", kNear), idle,     // 0: near miss (DRAM)
                                    one_access("ld", kFarLine), idle,  // 2: far miss: the copy, the home, DRAM
                                    one_access("ld", kFarLine),        // 4: the copy hits
                                    one_access("st", kFarLine),        // 5: side 1 writes at the home: side 0's copy is stale
                                    one_access("ld", kFarLine), idle,  // 6: the copy misses, the home hits
                                    one_access("ld", kNear)});         // 8: near hit
    // Kernel 2: side 0's slice (channel 0) misses, asks channel 8 over the link, which misses and reads DRAM.
    CHECK(test::stat(r, "l2.misses", 2) == 1);
    CHECK(test::stat(r, "l2.link.requests", 2) == 1);
    CHECK(test::stat(r, "l2.link.misses", 2) == 1);
    CHECK(test::stat(r, "l2.far_fetches", 2) == 1);
    CHECK(test::stat(r, "l2.fetches", 2) == 1);  // one DRAM read
    // The link both ways (2 x 100) and the home's lookup to data (60) on top of the near miss.
    CHECK(test::stat(r, "cycles", 2) == test::stat(r, "cycles", 0) + 2 * 100 + 60);
    // Kernel 4: a hit in side 0's copy, as fast as a near hit.
    CHECK(test::stat(r, "l2.hits", 4) == 1);
    CHECK(test::stat(r, "l2.link.requests", 4) == 0);
    CHECK(test::stat(r, "cycles", 4) == test::stat(r, "cycles", 8));
    // Kernel 5: side 1 stores at the home; kernel 6: side 0's copy was emptied, the home hits: no DRAM.
    CHECK(test::stat(r, "l2.stores", 5) == 1);
    CHECK(test::stat(r, "l2.misses", 6) == 1);
    CHECK(test::stat(r, "l2.link.hits", 6) == 1);
    CHECK(test::stat(r, "l2.fetches", 6) == 0);
    CHECK(test::stat(r, "cycles", 6) == test::stat(r, "cycles", 8) + 2 * 100 + 60);
}

TEST_CASE("L2 copies per side: a store to a far line updates the copy and writes through to the home", "[sim][partitions]") {
    const std::string idle = "compute 1\n";
    // The store is acknowledged by side 0's slice; its write-through reaches the home 100 cycles later, in a
    // later kernel: the idle kernels leave it time. It writes the L1's whole 64-byte line (16 lanes), so the
    // sectors the load will ask for are valid (a sector written in part would be fetched).
    const std::string whole_line_store = "st global 4 0x10 0xffff affine 0x" + [] {
        char b[24];
        std::snprintf(b, sizeof b, "%llx", (unsigned long long)kFarLine);
        return std::string(b);
    }() + " 4\nwait\n";
    const RunResult r = replicated({one_access("ld", kNear), idle,                   // 0: brings the near line
                                    whole_line_store, idle, idle, idle,            // 2: side 0 stores: copy + home
                                    one_access("ld", kFarLine), idle,              // 6: side 0 hits its copy
                                    one_access("ld", kNear)});                     // 8: a near hit
    CHECK(test::stat(r, "l2.stores", 2) == 1);
    double through = 0;
    for (size_t k = 2; k < 6; ++k) through += test::stat(r, "l2.link.stores", k);
    CHECK(through == 1);
    CHECK(test::stat(r, "l2.hits", 6) == 1);
    CHECK(test::stat(r, "l2.link.requests", 6) == 0);
    CHECK(test::stat(r, "cycles", 6) == test::stat(r, "cycles", 8));
}

TEST_CASE("L2 copies per side: without store copies a store makes none, and a load after it crosses", "[sim][partitions]") {
    // As above with l2.store_copies off: side 0's store writes through to the home and leaves no line on its
    // side, so kernel 6's load misses there, crosses the link and hits the home (the store's data): the near
    // hit's cycles plus the link both ways (2 x 100) and the home's lookup (60); no DRAM read.
    const std::string idle = "compute 1\n";
    char store[96];
    std::snprintf(store, sizeof store, "st global 4 0x10 0xffff affine 0x%llx 4\nwait\n", (unsigned long long)kFarLine);
    const RunResult r = replicated({one_access("ld", kNear), idle, store, idle, idle, idle, one_access("ld", kFarLine), idle,
                                    one_access("ld", kNear)},
                                   "off");
    CHECK(test::stat(r, "l2.stores", 2) == 1);
    CHECK(test::stat(r, "l2.misses", 6) == 1);
    CHECK(test::stat(r, "l2.link.hits", 6) == 1);
    CHECK(test::stat(r, "l2.fetches", 6) == 0);
    CHECK(test::stat(r, "cycles", 6) == test::stat(r, "cycles", 8) + 2 * 100 + 60);
}

namespace {
// Side 0 loads the far line (its copy made), stores the whole L1 line, loads it again: a hit in its copy
// whether stores make copies or not (the store updates the one the load made), as fast as a near hit,
// nothing over the link. One run a test case (a process simulates once).
void check_store_updates_copy(const char* store_copies) {
    const std::string idle = "compute 1\n";
    char store[96];
    std::snprintf(store, sizeof store, "st global 4 0x10 0xffff affine 0x%llx 4\nwait\n", (unsigned long long)kFarLine);
    const RunResult r = replicated({one_access("ld", kNear), idle, one_access("ld", kFarLine), idle, store, idle, idle, idle,
                                    one_access("ld", kFarLine), idle, one_access("ld", kNear)},
                                   store_copies);
    CHECK(test::stat(r, "l2.hits", 8) == 1);
    CHECK(test::stat(r, "l2.link.requests", 8) == 0);
    CHECK(test::stat(r, "cycles", 8) == test::stat(r, "cycles", 10));
}
}  // namespace

TEST_CASE("L2 copies per side: a store updates the copy a load made (store copies on)", "[sim][partitions]") {
    check_store_updates_copy("on");
}

TEST_CASE("L2 copies per side: a store updates the copy a load made (store copies off)", "[sim][partitions]") {
    check_store_updates_copy("off");
}

// l2.link_sectors_per_cycle: data crossing between the sides takes its turn on its way. At 0.25 sectors a cycle
// a 64-byte L1 line (two 32-byte L2 sectors) holds a way 8 cycles.
namespace {
std::string two_loads(uint64_t a, uint64_t b) {  // no wait between: both in flight
    const std::string first = one_access("ld", a);
    return first.substr(0, first.find('\n') + 1) + one_access("ld", b);
}
}  // namespace

TEST_CASE("L2 link rate: a copy's fetch comes back once its sectors have crossed", "[sim][partitions]") {
    const std::string idle = "compute 1\n";
    // Kernel 2 (CU 0, side 0) misses a far line: as without a rate (2 x 100 + 60 over the near miss of kernel 0),
    // plus the two sectors' 8 cycles on the way back.
    const RunResult one = replicated({one_access("ld", kNear), idle, one_access("ld", kFarLine)}, "on", "0.25");
    CHECK(test::stat(one, "l2.link.requests", 2) == 1);
    CHECK(test::stat(one, "cycles", 2) == test::stat(one, "cycles", 0) + 2 * 100 + 60 + 8);
}

TEST_CASE("L2 link rate: fetches the same way wait for each other", "[sim][partitions]") {
    const std::string idle = "compute 1\n";
    const uint64_t far2 = kFarLine + 256, near2 = kNear + 256;  // channels 9 and 1
    // Kernel 1 (CU 1, side 1) brings two side-1 lines into their homes; kernel 2 (CU 0) loads both at once: its
    // copies miss and the homes hit. Without a rate that is kernel 4's two near hits plus the link both ways
    // and the home's lookup (2 x 100 + 60), the two answers 4 cycles apart (cu.issue_cycles between the two
    // loads). At 0.25 the first crosses in 8 cycles and the second waits for it, then takes its own 8: 16 after
    // the first starts where it came 4 after, 12 cycles more.
    const RunResult r = replicated({two_loads(kNear, near2), two_loads(kFarLine, far2), two_loads(kFarLine, far2), idle,
                                    two_loads(kNear, near2)},
                                   "on", "0.25");
    CHECK(test::stat(r, "l2.link.hits", 2) == 2);
    CHECK(test::stat(r, "l2.hits", 4) == 2);
    CHECK(test::stat(r, "cycles", 2) == test::stat(r, "cycles", 4) + 2 * 100 + 60 + 12);
}

TEST_CASE("L2 link rate: the two ways do not wait for each other", "[sim][partitions]") {
    // Kernel 0: CU 0 misses a near line (channel 4). Kernel 1: CU 0 alone misses a far line (channel 10): the
    // near miss plus the link both ways and the home's lookup (2 x 100 + 60) and its sectors' 8 cycles back.
    // Kernel 2: both CUs at once, each missing a line homed on the other side (channels 8 and 0): one fetch each
    // way, each as if alone; one way shared by both directions would hold the second 8 cycles more.
    const std::string text = "dcusim-trace 1\nwave_size 64\nkernel near grid 1 1 1 block 64 1 1\nwave 0 0\n" +
                             one_access("ld", kNear + 1024) + "end\nkernel alone grid 1 1 1 block 64 1 1\nwave 0 0\n" +
                             one_access("ld", kFarLine + 512) + "end\nkernel both grid 2 1 1 block 64 1 1\nwave 0 0\n" +
                             one_access("ld", kFarLine) + "wave 1 0\n" + one_access("ld", kNear) + "end\n";
    Config cfg = test::preset("dcu-z100", {{"dram.tREFI", "0"}, {"dram.clock_mhz", "1500"}, {"cu.count", "2"},
                                           {"l2.partitions", "2"}, {"l2.replicate", "on"}, {"l2.far_latency", "100"},
                                           {"l2.hit_latency", "60"}, {"l2.link_sectors_per_cycle", "0.25"}});
    const RunResult r = test::run_files(cfg, {test::write_temp("both_ways.trace", text)});
    CHECK(test::stat(r, "l2.link.requests", 1) == 1);
    CHECK(test::stat(r, "l2.link.requests", 2) == 2);
    CHECK(test::stat(r, "cycles", 1) == test::stat(r, "cycles", 0) + 2 * 100 + 60 + 8);
    CHECK(test::stat(r, "cycles", 2) == test::stat(r, "cycles", 1));
}

TEST_CASE("L2 copies per side: slices waiting on each other with one MSHR each do not deadlock", "[sim][partitions]") {
    // Both CUs at once (two workgroups) load the same 64 lines, homed on both sides: every copy's fetch
    // waits on the other side's home, whose port also holds that side's CU lookups, each waiting for the
    // one MSHR. Without a port and MSHRs of their own for the link's lookups this never ends.
    std::string text = "dcusim-trace 1\nwave_size 64\nkernel both grid 2 1 1 block 64 1 1\n";
    for (int wg = 0; wg < 2; ++wg) {
        text += "wave " + std::to_string(wg) + " 0\n";
        for (uint64_t line = 0; line < 64; ++line) {
            const std::string one = one_access("ld", kNear + line * 128);
            text += one.substr(0, one.find('\n') + 1);  // no wait: all 64 in flight
        }
        text += "wait\n";
    }
    text += "end\n";
    Config cfg = test::preset("dcu-z100", {{"cu.count", "2"}, {"l2.partitions", "2"}, {"l2.replicate", "on"},
                                           {"l2.far_latency", "100"}, {"l2.mshrs", "1"}});
    const RunResult r = test::run_files(cfg, {test::write_temp("deadlock.trace", text)});
    CHECK(test::stat(r, "l2.requests") == 128);
    CHECK(test::stat(r, "dram.read_bytes") == 64 * 64);  // each line's 64-byte L1 line, once
}

TEST_CASE("L2 copies per side: channels that do not split evenly are an error naming the key", "[sim][partitions]") {
    Config cfg = test::preset("dcu-z100", {{"l2.partitions", "3"}, {"l2.replicate", "on"}});
    CHECK_THROWS_WITH(preset_registry::load(cfg), Catch::Contains("l2.replicate"));
}
