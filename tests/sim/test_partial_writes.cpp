// A store that writes a sector only in part leaves it dirty but not readable:
// a load of it is a miss, and the L2 fetches it (the H200 does,
// validation/results/h200-l2sides). A store that writes whole sectors leaves
// them valid: a load hits. Default preset (dcu-z100): 64-byte L1 lines, not
// sectored; 128-byte L2 lines of 32-byte sectors; so a store tells the L2 its
// bytes in 32-byte grains. One wave, one store, then (the L1 emptied by a new
// kernel) one load of lane 0's word.
#include <catch2/catch.hpp>

#include "helpers.h"

using namespace dcusim;
using namespace dcusim::test;

namespace {

RunResult store_then_load(const std::string& store) {
    const std::string kernel = "kernel k grid 1 1 1 block 64 1 1\nwave 0 0\n";
    return test::run_files(test::preset("dcu-z100"),
                           {test::write_temp("partial.trace", "dcusim-trace 1\nwave_size 64\n" + kernel + store +
                                                                  "wait\nend\n" + kernel +
                                                                  "ld global 4 0x20 0x1 affine 0x40000 4\nwait\nend\n")});
}

}  // namespace

TEST_CASE("a store of one word leaves its sector unreadable: the load misses and DRAM is read", "[sim][memory]") {
    const RunResult r = store_then_load("st global 4 0x10 0x1 affine 0x40000 4\n");  // lane 0: 4 bytes of sector 0
    CHECK(stat(r, "noc.request_bytes", 0) == 32);  // one 32-byte grain crosses, not the 64-byte L1 line
    CHECK(stat(r, "l2.stores", 0) == 1);
    // The load asks for the L1's 64-byte line: sector 0 is dirty but not valid, sector 1 never written.
    CHECK(stat(r, "l2.misses", 1) == 1);
    CHECK(stat(r, "dram.read_bytes", 1) == 64);
}

TEST_CASE("a store of whole sectors leaves them valid: the load of them hits", "[sim][memory]") {
    // 16 lanes x 4 bytes: bytes 0-63, both 32-byte sectors of the L1 line, whole.
    const RunResult r = store_then_load("st global 4 0x10 0xffff affine 0x40000 4\n");
    CHECK(stat(r, "noc.request_bytes", 0) == 64);
    CHECK(stat(r, "l2.hits", 1) == 1);
    CHECK(stat(r, "dram.read_bytes", 1) == 0);
}

TEST_CASE("a store of one whole sector and part of the next: the load misses the part", "[sim][memory]") {
    // 9 lanes x 4 bytes: sector 0 whole, 4 bytes of sector 1.
    const RunResult r = store_then_load("st global 4 0x10 0x1ff affine 0x40000 4\n");
    CHECK(stat(r, "noc.request_bytes", 0) == 64);
    CHECK(stat(r, "l2.misses", 1) == 1);
    CHECK(stat(r, "dram.read_bytes", 1) == 32);  // only sector 1 is fetched
}

TEST_CASE("l2.partial_writes fetch: a sector written in part is read from DRAM and written back whole", "[sim][memory]") {
    // The store's sector 0 (4 of its 32 bytes) is fetched (32 bytes, no fetch block: l2.fetch_bytes 0) and,
    // when it comes, written back at once. That happens after the store is answered: the idle kernel after
    // it leaves the time, and the two kernels are summed.
    const std::string kernel = "kernel k grid 1 1 1 block 64 1 1\nwave 0 0\n";
    const RunResult r = test::run_files(
        test::preset("dcu-z100", {{"l2.partial_writes", "fetch"}}),
        {test::write_temp("rmw.trace", "dcusim-trace 1\nwave_size 64\n" + kernel + "st global 4 0x10 0x1 affine 0x40000 4\nwait\nend\n" +
                                           kernel + "compute 5000\nend\n" + kernel +
                                           "ld global 4 0x20 0x1 affine 0x40000 4\nwait\nend\n")});
    CHECK(stat(r, "l2.partial_sectors", 0) == 1);
    CHECK(stat(r, "dram.read_bytes", 0) + stat(r, "dram.read_bytes", 1) == 32);
    CHECK(stat(r, "dram.write_bytes", 0) + stat(r, "dram.write_bytes", 1) == 32);
    // The load wants the L1's 64-byte line: sector 0 is whole now, sector 1 was never written.
    CHECK(stat(r, "l2.misses", 2) == 1);
    CHECK(stat(r, "dram.read_bytes", 2) == 32);
}

TEST_CASE("l2.partial_writes fetch: whole sectors are not fetched", "[sim][memory]") {
    const std::string kernel = "kernel k grid 1 1 1 block 64 1 1\nwave 0 0\n";
    const RunResult r = test::run_files(
        test::preset("dcu-z100", {{"l2.partial_writes", "fetch"}}),
        {test::write_temp("rmw.trace", "dcusim-trace 1\nwave_size 64\n" + kernel + "st global 4 0x10 0xffff affine 0x40000 4\nwait\nend\n" +
                                           kernel + "compute 5000\nend\n")});
    CHECK(stat(r, "l2.partial_sectors", 0) == 0);
    CHECK(stat(r, "dram.read_bytes", 0) + stat(r, "dram.read_bytes", 1) == 0);
    CHECK(stat(r, "dram.write_bytes", 0) + stat(r, "dram.write_bytes", 1) == 0);  // dirty in the L2
}

namespace {
// Two stores of one wave, each of the lanes given, with l2.partial_fetch_delay 1000; then an idle kernel
// (5,000 cycles: the delay passes) and a load of sector 0 (lane 0's word).
RunResult two_stores(const std::string& first, const std::string& second) {
    const std::string kernel = "kernel k grid 1 1 1 block 64 1 1\nwave 0 0\n";
    return test::run_files(test::preset("dcu-z100", {{"l2.partial_writes", "fetch"}, {"l2.partial_fetch_delay", "1000"}}),
                           {test::write_temp("parts.trace", "dcusim-trace 1\nwave_size 64\n" + kernel + first + second + "wait\nend\n" +
                                                                kernel + "compute 5000\nend\n" + kernel +
                                                                "ld global 4 0x20 0x1 affine 0x40000 4\nwait\nend\n")});
}
double sum3(const RunResult& r, const char* key) { return stat(r, key, 0) + stat(r, key, 1) + stat(r, key, 2); }
}  // namespace

TEST_CASE("l2.partial_fetch_delay: a sector completed by the next store is not fetched", "[sim][memory]") {
    // Lanes 0-7 write the even words 0-14 of sectors 0 and 1 (8-byte stride); the next store the odd ones.
    const RunResult r = two_stores("st global 4 0x10 0xff affine 0x40000 8\n", "st global 4 0x18 0xff affine 0x40004 8\n");
    CHECK(stat(r, "l2.stores", 0) == 2);
    CHECK(sum3(r, "l2.partial_sectors") == 0);
    CHECK(sum3(r, "dram.read_bytes") == 0);
    CHECK(stat(r, "l2.hits", 2) == 1);  // the load's 64-byte L1 line: both sectors whole
}

TEST_CASE("l2.partial_fetch_delay: a sector left in part is fetched once the delay has passed", "[sim][memory]") {
    // The second store writes the odd words but 15: sector 0 whole, sector 1 still in part.
    const RunResult r = two_stores("st global 4 0x10 0xff affine 0x40000 8\n", "st global 4 0x18 0x7f affine 0x40004 8\n");
    CHECK(stat(r, "l2.partial_sectors", 0) + stat(r, "l2.partial_sectors", 1) == 1);  // fetched while idle, once
    CHECK(stat(r, "dram.read_bytes", 0) + stat(r, "dram.read_bytes", 1) == 32);
    CHECK(stat(r, "dram.write_bytes", 0) + stat(r, "dram.write_bytes", 1) == 32);  // and written back whole
    CHECK(stat(r, "l2.hits", 2) == 1);
    CHECK(stat(r, "dram.read_bytes", 2) == 0);
}

namespace {
// One wave's stores (`body`, ending with its wait), then an idle kernel of 5,000 cycles (a delay passes, a
// fetch completes), on the DCU preset with partial sectors fetched and `overrides`.
RunResult stores_then_idle(const std::string& body, std::initializer_list<std::pair<const char*, const char*>> overrides) {
    const std::string kernel = "kernel k grid 1 1 1 block 64 1 1\nwave 0 0\n";
    Config cfg = test::preset("dcu-z100", overrides);
    return test::run_files(cfg, {test::write_temp("stores.trace", "dcusim-trace 1\nwave_size 64\n" + kernel + body + "end\n" +
                                                                     kernel + "compute 5000\nend\n")});
}
// One wave writes sector 0 of line 0x40000 in three stores about 600 cycles apart (words 0-2, 3-5, 6-7;
// `compute 150`: 150 instructions at 4 cycles), with l2.partial_fetch_delay 1000 counted from `from`.
RunResult spaced_stores(const char* from) {
    return stores_then_idle("st global 4 0x10 0x7 affine 0x40000 4\ncompute 150\nst global 4 0x18 0x7 affine 0x4000c 4\n"
                            "compute 150\nst global 4 0x20 0x3 affine 0x40018 4\nwait\n",
                            {{"l2.partial_writes", "fetch"}, {"l2.partial_fetch_delay", "1000"}, {"l2.partial_fetch_from", from}});
}
}  // namespace

TEST_CASE("l2.partial_fetch_from first: a sector completed 1,200 cycles after its first part is fetched", "[sim][memory]") {
    // Due 1,000 cycles after the first store, before the third (~1,200) completes it: fetched, 32 bytes.
    const RunResult r = spaced_stores("first");
    CHECK(stat(r, "dram.read_bytes", 0) + stat(r, "dram.read_bytes", 1) == 32);
}

TEST_CASE("l2.partial_fetch_from latest: each store in part puts the fetch back, so the third completes it", "[sim][memory]") {
    // The second store (~600) moves the fetch to ~1,600; the third (~1,200) completes the sector first.
    const RunResult r = spaced_stores("latest");
    CHECK(stat(r, "l2.partial_sectors", 0) + stat(r, "l2.partial_sectors", 1) == 0);
    CHECK(stat(r, "dram.read_bytes", 0) + stat(r, "dram.read_bytes", 1) == 0);
}

namespace {
// One wave stores word 0 of three lines of one slice (l2.channels 1: 0x40000, 0x40080, 0x40100), each
// leaving its sector 0 in part, with l2.partial_lines `lines`.
RunResult three_lines_in_part(const char* lines) {
    return stores_then_idle("st global 4 0x10 0x1 affine 0x40000 4\nst global 4 0x18 0x1 affine 0x40080 4\n"
                            "st global 4 0x20 0x1 affine 0x40100 4\nwait\n",
                            {{"l2.partial_writes", "fetch"}, {"l2.partial_lines", lines}, {"l2.channels", "1"}});
}
}  // namespace

TEST_CASE("l2.partial_lines 2: the third line left in part fetches the first's sector, and no other", "[sim][memory]") {
    const RunResult r = three_lines_in_part("2");
    CHECK(stat(r, "l2.partial_sectors", 0) + stat(r, "l2.partial_sectors", 1) == 1);
    CHECK(stat(r, "dram.read_bytes", 0) + stat(r, "dram.read_bytes", 1) == 32);
    CHECK(stat(r, "dram.write_bytes", 0) + stat(r, "dram.write_bytes", 1) == 32);  // written back whole
}

TEST_CASE("l2.partial_lines 3: three lines in part are held, none fetched however long", "[sim][memory]") {
    const RunResult r = three_lines_in_part("3");
    CHECK(stat(r, "l2.partial_sectors", 0) + stat(r, "l2.partial_sectors", 1) == 0);
    CHECK(stat(r, "dram.read_bytes", 0) + stat(r, "dram.read_bytes", 1) == 0);
}
