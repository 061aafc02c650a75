// The global-memory path on the default preset (64-byte L1 lines, 128-byte L2
// lines of 32-byte sectors): reuse, MSHR merging, write-back, streaming.
#include <catch2/catch.hpp>

#include "helpers.h"
#include "sim/preset.h"
#include "traces/tools/generators.h"

using namespace dcusim;
using namespace dcusim::test;

TEST_CASE("reading the same small buffer twice: the second pass hits in L1", "[sim][memory]") {
    // 2 instructions x 64 lanes x 4 bytes = 512 bytes = 8 L1 lines, twice.
    auto r = run_text(one_wave_trace(64, 64,
                                     "ld global 4 0x10 all affine 0x10000 4\nld global 4 0x18 all affine 0x10100 4\nwait\n"
                                     "ld global 4 0x10 all affine 0x10000 4\nld global 4 0x18 all affine 0x10100 4\nwait"));
    CHECK(stat(r, "l1.requests") == 16);
    CHECK(stat(r, "l1.misses") == 8);
    CHECK(stat(r, "l1.hits") == 8);
    CHECK(stat(r, "l1.sectors") == 16);
    // each 128-byte L2 line is asked for twice, one 64-byte half at a time
    CHECK(stat(r, "l2.requests") == 8);
    CHECK(stat(r, "l2.fetches") == 8);
    CHECK(stat(r, "dram.read_bytes") == 512);
}

TEST_CASE("a second miss to a line in flight merges in the L1's MSHR", "[sim][memory]") {
    auto r = run_text(one_wave_trace(64, 64, "ld global 4 0x10 0x1 affine 0x20000 0\nld global 4 0x18 0x2 affine 0x20000 0"));
    CHECK(stat(r, "l1.misses") == 2);
    CHECK(stat(r, "l1.mshr_merges") == 1);
    CHECK(stat(r, "l1.fetches") == 1);
    CHECK(stat(r, "l2.requests") == 1);
    CHECK(stat(r, "dram.read_bytes") == 64);
}

TEST_CASE("a dirty L2 line is written back when it is evicted", "[sim][memory]") {
    // One L2 channel of one set of two 128-byte lines. Two stores dirty lines 0
    // and 1 (all four sectors each); a load of line 2 evicts line 0, the LRU.
    auto r = run_text(one_wave_trace(64, 64,
                                     "st global 4 0x10 0xffffffff affine 0x0 4\nst global 4 0x18 0xffffffff affine 0x80 4\n"
                                     "wait\nld global 4 0x20 0x1 affine 0x100 0\nwait"),
                      {{"l2.channels", "1"}, {"l2.size_bytes", "256"}, {"l2.assoc", "2"}});
    CHECK(stat(r, "l1.stores") == 4);
    CHECK(stat(r, "l2.stores") == 4);
    CHECK(stat(r, "l2.writebacks") == 1);
    CHECK(stat(r, "l2.writeback_bytes") == 128);
    CHECK(stat(r, "dram.write_bytes") == 128);
    CHECK(stat(r, "dram.read_bytes") == 64);  // the loaded 64-byte L1 line: two sectors
}

// One channel of 4 sets of 2 ways (1 KiB of 128-byte lines). The first kernel reads lines 0, 4 and 8, the
// second line 0 again (the L1s are emptied at a launch): the second kernel's DRAM reads.
static double set_hash_reread(const char* hash) {
    const std::string kernel = "kernel k grid 1 1 1 block 64 1 1\nwave 0 0\n";
    const std::string text = "dcusim-trace 1\nwave_size 64\n" + kernel +
                             "ld global 4 0x10 0xffffffff affine 0x0 4\nld global 4 0x10 0xffffffff affine 0x200 4\n"
                             "ld global 4 0x10 0xffffffff affine 0x400 4\nwait\nend\n" +
                             kernel + "ld global 4 0x20 0xffffffff affine 0x0 4\nwait\nend\n";
    const RunResult r = run_files(
        preset("dcu-z100", {{"l2.channels", "1"}, {"l2.size_bytes", "1K"}, {"l2.assoc", "2"}, {"l2.set_hash", hash}}),
        {write_temp(std::string("sethash_") + hash + ".trace", text)});
    CHECK(stat(r, "dram.read_bytes", 0) == 3 * 128);
    return stat(r, "dram.read_bytes", 1);
}

TEST_CASE("l2.set_hash off: lines a multiple of the sets apart share a set", "[sim][memory]") {
    // All three are set 0: line 8 evicts line 0 (the LRU), read from DRAM again.
    CHECK(set_hash_reread("off") == 128);
}

TEST_CASE("l2.set_hash on: lines a multiple of the sets apart spread over the sets", "[sim][memory]") {
    // Set = (index mod 4 + the upper half of (index / 4) x 0x9E3779B97F4A7C15) mod 4: 0, 1 and 2. It hits.
    CHECK(set_hash_reread("on") == 0);
}

TEST_CASE("streaming 8 MiB past a 1 MiB L2 reads 8 MiB from DRAM", "[sim][memory]") {
    auto path = write_generated("stream.dctrace", 64, [](trace::RecordSink& s) {
        trace::gen_stream(s, 8 << 20, 256, 4, 16, 1, 64);
    });
    auto r = run_files(preset("dcu-z100", {{"l2.size_bytes", "1M"}}), {path});
    const double mib8 = 8 << 20;
    CHECK(std::abs(stat(r, "dram.read_bytes") - mib8) <= 0.01 * mib8);
    CHECK(stat(r, "l1.hits") == 0);
    CHECK(stat(r, "dram.write_bytes") == 0);
}

TEST_CASE("L2-resident data is read again from the L2", "[sim][memory]") {
    // 1 MiB read twice by 16 workgroups on 16 CUs: 64 KiB per CU cycles
    // through its 16 KiB LRU L1, so the second pass misses there and hits the 4 MiB L2.
    auto path = write_generated("stream2.dctrace", 64, [](trace::RecordSink& s) {
        trace::gen_stream(s, 1 << 20, 16, 4, 16, 2, 64);
    });
    auto r = run_files(preset("dcu-z100"), {path});
    CHECK(stat(r, "dram.read_bytes") == 1 << 20);
    CHECK(stat(r, "l1.hits") == 0);
    CHECK(stat(r, "l2.hits") == (1 << 20) / 64);  // every 64-byte L1 line of the second pass
}

TEST_CASE("loads declared read-only have their own L1 counters", "[sim][memory]") {
    // pc 0x10 is read-only (__ldg): a miss, then after the wait a hit; pc 0x18 is an ordinary load.
    auto r = run_text("dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\npc 0x10 readonly\nwave 0 0\n"
                      "ld global 4 0x10 0x1 affine 0x30000 0\nwait\nld global 4 0x10 0x1 affine 0x30000 0\n"
                      "ld global 4 0x18 0x1 affine 0x40000 0\nwait\nend\n");
    CHECK(stat(r, "l1.ro_requests") == 2);
    CHECK(stat(r, "l1.ro_misses") == 1);
    CHECK(stat(r, "l1.ro_hits") == 1);
    CHECK(stat(r, "l1.requests") == 3);
    CHECK(stat(r, "l1.misses") == 2);
}

TEST_CASE("an L2 lookup that waits for a free MSHR is counted once", "[sim][memory]") {
    // 256 bytes = four 64-byte L1 lines, i.e. both halves of two 128-byte L2
    // lines, into one L2 channel with one MSHR. The second half merges into
    // the first line's MSHR (a second fetch); the third request must wait for
    // both fills, then misses; the fourth merges. 4 requests of 2 sectors each.
    auto r = run_text(one_wave_trace(64, 64, "ld global 4 0x10 all affine 0x10000 4\nwait"),
                      {{"l2.channels", "1"}, {"l2.mshrs", "1"}});
    CHECK(stat(r, "l2.mshr_stall_cycles") > 0);
    CHECK(stat(r, "l2.requests") == 4);
    CHECK(stat(r, "l2.sectors") == 8);
    CHECK(stat(r, "l2.sector_hits") == 0);
    CHECK(stat(r, "l2.fetches") == 4);
    CHECK(stat(r, "dram.read_bytes") == 256);
}

TEST_CASE("an L1 lookup that waits for a free MSHR counts its valid sectors once", "[sim][memory]") {
    // 64-byte L1 lines of two 32-byte sectors, one MSHR. First one lane reads
    // sector 0 of line 0x10000. Then 256 bytes from 0xffc0 touch lines 0xffc0
    // (a miss that takes the MSHR), 0x10000 (sector 0 valid, sector 1 missing:
    // it waits for the MSHR), 0x10040 and 0x10080. One sector hit in all.
    auto r = run_text(one_wave_trace(64, 64, "ld global 4 0x10 0x1 affine 0x10000 0\nwait\nld global 4 0x18 all affine 0xffc0 4\nwait"),
                      {{"l1.sector_bytes", "32"}, {"l1.mshrs", "1"}});
    CHECK(stat(r, "l1.mshr_stall_cycles") > 0);
    CHECK(stat(r, "l1.requests") == 5);
    CHECK(stat(r, "l1.sectors") == 9);
    CHECK(stat(r, "l1.sector_hits") == 1);
    CHECK(stat(r, "l1.misses") == 5);
}

TEST_CASE("stores hold the request link at noc.store_bytes_per_cycle, fractions kept", "[sim][memory]") {
    // One wave stores 256 bytes: 4 L1 lines of 64 bytes, looked up one a cycle (t, t+1, t+2,
    // t+3), all to the one L2 channel. At 24 B/clk a line holds the link 64 / 24 = 2.67 cycles,
    // so the lines start at t, t + 2.67, 5.33 and 8.00 and wait 0 + 1 + 3 + 5 = 9 whole cycles
    // (rounded to 3 cycles a line it would be 0 + 2 + 4 + 6 = 12).
    const std::string store = "st global 4 0x10 all affine 0x10000 4\nwait";
    auto r = run_text(one_wave_trace(64, 64, store), {{"l2.channels", "1"}, {"noc.store_bytes_per_cycle", "24"}});
    CHECK(stat(r, "noc.request_bytes") == 256);
    CHECK(stat(r, "noc.queue_cycles") == 9);
}

TEST_CASE("a CU puts store data into the network at noc.cu_store_bytes_per_cycle", "[sim][memory]") {
    // The same 4 lines of 64 bytes, looked up at t .. t+3. At 16 B/clk each holds the CU's port 4
    // cycles: they leave the CU at t, t+4, t+8 and t+12, waiting 0 + 3 + 6 + 9 = 18 cycles; the
    // channel's link (64 B/clk, a cycle a line) then takes each as it comes.
    const std::string store = "st global 4 0x10 all affine 0x10000 4\nwait";
    auto r = run_text(one_wave_trace(64, 64, store), {{"l2.channels", "1"}, {"noc.cu_store_bytes_per_cycle", "16"}});
    CHECK(stat(r, "noc.request_bytes") == 256);
    CHECK(stat(r, "noc.queue_cycles") == 18);
}

TEST_CASE("each store request holds its CU's port noc.cu_store_request_cycles", "[sim][memory]") {
    // 4 lanes store a word each into lines of their own (64 bytes apart): 4 requests of one 32-byte grain,
    // looked up at t .. t+3. At 2.5 cycles a request they leave the CU at t, t+2.5, t+5 and t+7.5 (in
    // whole cycles t, t+2, t+5, t+7), waiting 0 + 1 + 3 + 4 = 8 cycles; the channel's link (64 B/clk,
    // a cycle a request) takes each as it comes.
    auto r = run_text(one_wave_trace(64, 64, "st global 4 0x10 0xf affine 0x10000 64\nwait"),
                      {{"l2.channels", "1"}, {"noc.cu_store_request_cycles", "2.5"}});
    CHECK(stat(r, "noc.request_bytes") == 4 * 32);
    CHECK(stat(r, "noc.queue_cycles") == 8);
}

TEST_CASE("noc.cu_store_request_cycles holds the CU's port whatever the request's bytes", "[sim][memory]") {
    // 4 whole 64-byte lines, looked up at t .. t+3, wait as the 4 words above: 0 + 1 + 3 + 4 = 8 cycles.
    auto r = run_text(one_wave_trace(64, 64, "st global 4 0x10 all affine 0x10000 4\nwait"),
                      {{"l2.channels", "1"}, {"noc.cu_store_request_cycles", "2.5"}});
    CHECK(stat(r, "noc.request_bytes") == 256);
    CHECK(stat(r, "noc.queue_cycles") == 8);
}

TEST_CASE("a store's data at noc.cu_store_bytes_per_cycle holds the port when longer than the floor", "[sim][memory]") {
    // The same 4 lines at 16 B/clk take 4 cycles each, more than the 2.5 of the floor: they wait
    // 0 + 3 + 6 + 9 = 18 cycles, as without it.
    auto r = run_text(one_wave_trace(64, 64, "st global 4 0x10 all affine 0x10000 4\nwait"),
                      {{"l2.channels", "1"}, {"noc.cu_store_request_cycles", "2.5"}, {"noc.cu_store_bytes_per_cycle", "16"}});
    CHECK(stat(r, "noc.queue_cycles") == 18);
}

TEST_CASE("an atomic holds its CU's port noc.cu_store_request_cycles for each lane on its busiest address", "[sim][memory]") {
    // 4 lanes on one address of line 0x10000, 4 on one address of line 0x10040: two line requests of 4
    // lanes each, which the L2 gets one by one. The first holds the L1's tag port 1 + 3 + 3 cycles
    // (each shared lane beyond the first a cycle), so the second is looked up at t+7. At 2.5 cycles a
    // request the first holds the CU's port 4 x 2.5 = 10 cycles: the second leaves at t+10, 3 cycles
    // late (each a 64-byte L1 sector: a cycle on the channel's link).
    const std::string atom = "atom global 4 0x10 0xff list 0x10000 0x10000 0x10000 0x10000 0x10040 0x10040 0x10040 0x10040\nwait";
    auto r = run_text(one_wave_trace(64, 64, atom), {{"l2.channels", "1"}, {"noc.cu_store_request_cycles", "2.5"}});
    CHECK(stat(r, "l1.atomics") == 2);
    CHECK(stat(r, "noc.queue_cycles") == 3);
}

TEST_CASE("an atomic's lanes on one address are a request and a sector each at the L1 and the L2", "[sim][memory]") {
    // The same 8 lanes: two 64-byte L1 lines (one sector each) of one 128-byte L2 line, 4 lanes on one
    // address in each. The L1 counts each line's sector and 3 more for the lanes that leave one by one:
    // 2 x (1 + 3) = 8. At the L2 (32-byte sectors) the first line's request wants 2 sectors and misses
    // (cold), the second wants the other 2, fetched apart (l2.fetch_bytes 0): 2 misses of 2 sectors.
    // Each is followed by 3 one-sector requests of its shared lanes, hits: 8 requests, 10 sectors, 6 hit.
    const std::string atom = "atom global 4 0x10 0xff list 0x10000 0x10000 0x10000 0x10000 0x10040 0x10040 0x10040 0x10040\nwait";
    auto r = run_text(one_wave_trace(64, 64, atom), {{"l2.channels", "1"}});
    CHECK(stat(r, "l1.atomics") == 2);
    CHECK(stat(r, "l1.sectors") == 8);
    CHECK(stat(r, "noc.request_bytes") == 8 * 64);  // each of the 8 passes with its 64-byte L1 sector
    CHECK(stat(r, "l2.requests") == 8);
    CHECK(stat(r, "l2.atomics") == 8);
    CHECK(stat(r, "l2.misses") == 2);
    CHECK(stat(r, "l2.hits") == 6);
    CHECK(stat(r, "l2.sectors") == 10);
    CHECK(stat(r, "l2.sector_hits") == 6);
}

TEST_CASE("an atomic's PC declared int or float chains its lanes at its kind's cycles", "[sim][memory]") {
    // A first kernel brings the line into the L2; three kernels then add from 32 lanes to one address of
    // it, unmarked, int and float: one request of 32 passes, its chain the binding limit (31 gaps of 2, 3
    // or 5 cycles against 32 passes of a 1-cycle sector). Everything before the atomic unit is the same
    // in the three (an L2 hit), so the int kernel takes 31 x (3 - 2) = 31 cycles more than the
    // unmarked one, the float kernel 31 x (5 - 2) = 93 more.
    const std::string head = "kernel k grid 1 1 1 block 64 1 1\n", atom = "wave 0 0\natom global 4 0x10 0xffffffff affine 0x10000 0\nwait\nend\n";
    const std::string text = "dcusim-trace 1\nwave_size 64\n" + head + "wave 0 0\nld global 4 0x20 0x1 affine 0x10000 0\nwait\nend\n" +
                             head + atom + head + "pc 0x10 atomic int\n" + atom + head + "pc 0x10 atomic float\n" + atom;
    const RunResult r = run_text(text, {{"l2.channels", "1"}, {"l2.atomic_sector_cycles", "1"}, {"l2.atomic_same_address_cycles", "2"},
                                        {"l2.atomic_int_same_address_cycles", "3"}, {"l2.atomic_float_same_address_cycles", "5"}});
    CHECK(stat(r, "l2.hits", 1) == 32);  // the request and its 31 lanes beyond the first
    CHECK(stat(r, "cycles", 2) - stat(r, "cycles", 1) == 31);
    CHECK(stat(r, "cycles", 3) - stat(r, "cycles", 1) == 93);
}

TEST_CASE("an atomic's rounds of several words carry each word's sector to the L2", "[sim][memory]") {
    // Two lanes on each of two words of one 64-byte L1 line (one L1 sector), in its two 32-byte halves (two
    // L2 sectors). Round 1 takes one lane of each word, round 2 the other: the L1 counts 1 + 1 sectors,
    // the L2 two requests of both sectors: the first misses (cold), the second hits both. A sector a pass
    // (the single-address rule) would give the L2 3 sectors. Each round carries its sector's data toward the
    // L2: 2 x 64 bytes on the request link (64 before rounds carried data).
    auto r = run_text(one_wave_trace(64, 64, "atom global 4 0x10 0xf list 0x10000 0x10000 0x10020 0x10020\nwait"),
                      {{"l2.channels", "1"}});
    CHECK(stat(r, "noc.request_bytes") == 2 * 64);
    CHECK(stat(r, "l1.sectors") == 2);
    CHECK(stat(r, "l2.requests") == 2);
    CHECK(stat(r, "l2.sectors") == 4);
    CHECK(stat(r, "l2.sector_hits") == 2);
}

TEST_CASE("an atomic's lanes on distinct words of a line are one request", "[sim][memory]") {
    // 8 lanes on 8 words of one 64-byte L1 line: one L1 sector, one L2 request of its 2 sectors.
    auto r = run_text(one_wave_trace(64, 64, "atom global 4 0x10 0xff affine 0x10000 4\nwait"), {{"l2.channels", "1"}});
    CHECK(stat(r, "l1.sectors") == 1);
    CHECK(stat(r, "l2.requests") == 1);
    CHECK(stat(r, "l2.sectors") == 2);
    CHECK(stat(r, "l2.sector_hits") == 0);
}

TEST_CASE("a store leaving a sector in part holds its channel's link noc.partial_store_cycles", "[sim][memory]") {
    // 4 lanes store a word each into lines of their own (64 bytes apart): 4 requests of one 32-byte grain
    // written in part, looked up at t .. t+3, leaving the CU at once. At 64 B/clk a grain would hold the
    // channel's link half a cycle; at 2.5 cycles a request they start on it at t, t+2.5, t+5 and t+7.5
    // (in whole cycles t, t+2, t+5, t+7), waiting 0 + 1 + 3 + 4 = 8 cycles.
    auto r = run_text(one_wave_trace(64, 64, "st global 4 0x10 0xf affine 0x10000 64\nwait"),
                      {{"l2.channels", "1"}, {"noc.store_bytes_per_cycle", "64"}, {"noc.partial_store_cycles", "2.5"}});
    CHECK(stat(r, "noc.request_bytes") == 4 * 32);
    CHECK(stat(r, "noc.queue_cycles") == 8);
}

TEST_CASE("noc.partial_store_cycles leaves stores of whole sectors alone", "[sim][memory]") {
    // 4 whole 64-byte lines, looked up at t .. t+3: a cycle each on the 64 B/clk link, no wait.
    auto r = run_text(one_wave_trace(64, 64, "st global 4 0x10 all affine 0x10000 4\nwait"),
                      {{"l2.channels", "1"}, {"noc.store_bytes_per_cycle", "64"}, {"noc.partial_store_cycles", "2.5"}});
    CHECK(stat(r, "noc.request_bytes") == 256);
    CHECK(stat(r, "noc.queue_cycles") == 0);
}

TEST_CASE("without noc.store_bytes_per_cycle stores use noc.bytes_per_cycle", "[sim][memory]") {
    // 64-byte lines on a 64 B/clk link: one a cycle, as fast as the L1 sends them.
    auto r = run_text(one_wave_trace(64, 64, "st global 4 0x10 all affine 0x10000 4\nwait"), {{"l2.channels", "1"}});
    CHECK(stat(r, "noc.queue_cycles") == 0);
}

TEST_CASE("load answers hold the response link at noc.load_bytes_per_cycle, fractions kept", "[sim][memory]") {
    // One wave stores 256 bytes (the L2 allocates the lines; the L1 does not), waits for the
    // acknowledgements, then loads them: 4 L1 misses that hit the one L2 channel a cycle apart, so
    // their 64-byte answers reach the link at t .. t+3. At 24 B/clk each holds it 2.67 cycles: they
    // wait 0 + 1 + 3 + 5 = 9 whole cycles. The stores, at 64 B/clk, and the acknowledgements wait none.
    const std::string trace = "st global 4 0x10 all affine 0x10000 4\nwait\nld global 4 0x18 all affine 0x10000 4\nwait";
    auto r = run_text(one_wave_trace(64, 64, trace), {{"l2.channels", "1"}, {"noc.load_bytes_per_cycle", "24"}});
    CHECK(stat(r, "l2.hits") == 4);
    CHECK(stat(r, "noc.response_bytes") == 256);
    CHECK(stat(r, "noc.queue_cycles") == 9);
}
