// Model parts the H200 validation needed, each worked by hand on the default
// preset: the L2's DRAM fetch granularity, local stores kept in the L1, the
// profiler's cache flush between kernels, the launch overhead, the per-wave
// issue interval, and the counters under the profilers' names. (The launch
// overhead and issue interval are compared run against run in tests/cli/model_knobs.sh.)
#include <catch2/catch.hpp>

#include "helpers.h"

using namespace dcusim;
using namespace dcusim::test;

namespace {
// One lane reads sector 0 of line 0x1000, waits, then reads sector 1 (0x1020).
const char* kTwoSectors = "ld global 4 0x10 0x1 affine 0x1000 0\nwait\nld global 4 0x18 0x1 affine 0x1020 0\nwait";
const char* kSpill = "st local 4 0x10 all affine 0 0\nwait\nld local 4 0x18 all affine 0 0\nwait";
// Two kernels, each one wave reading 256 bytes at 0x40000.
const std::string kTwoKernels =
    "dcusim-trace 1\nwave_size 64\nkernel a grid 1 1 1 block 64 1 1\nwave 0 0\nld global 4 0x10 all affine 0x40000 4\nwait\nend\n"
    "kernel b grid 1 1 1 block 64 1 1\nwave 0 0\nld global 4 0x10 all affine 0x40000 4\nwait\nend\n";
}  // namespace

TEST_CASE("without l2.fetch_bytes each missing sector is fetched alone", "[sim][memory]") {
    // 32-byte L1 sectors, so each load asks the L2 for one 32-byte sector.
    auto r = run_text(one_wave_trace(64, 64, kTwoSectors), {{"l1.sector_bytes", "32"}});
    CHECK(stat(r, "dram.read_bytes") == 64);  // two misses of one sector each
    CHECK(stat(r, "l2.fetches") == 2);
    CHECK(stat(r, "l2.sectors") == 2);
    CHECK(stat(r, "l2.sector_hits") == 0);
}

TEST_CASE("l2.fetch_bytes 64: a one-sector miss brings its aligned pair", "[sim][memory]") {
    auto r = run_text(one_wave_trace(64, 64, kTwoSectors), {{"l1.sector_bytes", "32"}, {"l2.fetch_bytes", "64"}});
    CHECK(stat(r, "dram.read_bytes") == 64);
    CHECK(stat(r, "l2.fetches") == 1);
    CHECK(stat(r, "l2.sector_hits") == 1);  // the second load finds its sector
}

TEST_CASE("l2.fetch_bytes 128: a one-sector miss brings the whole line", "[sim][memory]") {
    auto r = run_text(one_wave_trace(64, 64, "ld global 4 0x10 0x1 affine 0x1000 0\nwait"),
                      {{"l1.sector_bytes", "32"}, {"l2.fetch_bytes", "128"}});
    CHECK(stat(r, "dram.read_bytes") == 128);
}

TEST_CASE("l1.local_write_allocate on: spilled values are read back from the L1", "[sim][memory]") {
    // 64 lanes x 4 bytes of private memory at offset 0: lanes side by side, 256 bytes = 4 L1 lines.
    auto r = run_text(one_wave_trace(64, 64, kSpill), {{"l1.local_write_allocate", "on"}});
    CHECK(stat(r, "l1.hits") == 4);
    CHECK(stat(r, "l1.misses") == 0);
    CHECK(stat(r, "l1.stores") == 4);  // still written through
    // The loads find the 4 sectors the stores allocated; the stores' own sectors, written
    // through, count as misses (the H200's profiler: validation/results/h200-l1config).
    CHECK(stat(r, "l1.sector_hits") == 4);
    CHECK(stat(r, "l1.sectors") == 8);
}

TEST_CASE("l1.local_write_allocate off: spilled values come back from the L2", "[sim][memory]") {
    auto r = run_text(one_wave_trace(64, 64, kSpill));
    CHECK(stat(r, "l1.hits") == 0);
    CHECK(stat(r, "l1.misses") == 4);
}

TEST_CASE("l2.flush_at_launch off: the next kernel finds the lines in the L2", "[sim][memory]") {
    auto r = run_text(kTwoKernels);
    CHECK(stat(r, "dram.read_bytes", 0) == 256);
    CHECK(stat(r, "dram.read_bytes", 1) == 0);  // the L1 was invalidated, the L2 kept them
}

TEST_CASE("l2.flush_at_launch on: every kernel starts with an empty L2", "[sim][memory]") {
    auto r = run_text(kTwoKernels, {{"l2.flush_at_launch", "on"}});
    CHECK(stat(r, "dram.read_bytes", 0) == 256);
    CHECK(stat(r, "dram.read_bytes", 1) == 256);
}

TEST_CASE("rocprof names on the DCU preset", "[sim][report]") {
    // 64 lanes at a 128-byte stride on 32 banks: 32 cycles per half-wave, 62 of them conflicts.
    auto r = run_text(one_wave_trace(64, 64, "ld lds 4 0x10 all affine 0 128"));
    CHECK(stat(r, "SQ_LDS_BANK_CONFLICT") == 62);
    CHECK(stat(r, "SQ_INSTS_LDS") == 1);
    CHECK(stat(r, "GRBM_GUI_ACTIVE") == stat(r, "cycles"));
}

TEST_CASE("Nsight Compute names with report.profiler = ncu", "[sim][report]") {
    auto r = run_text(one_wave_trace(64, 64, "ld lds 4 0x10 all affine 0 128\nst lds 4 0x18 all affine 0 4"),
                      {{"report.profiler", "ncu"}});
    CHECK(stat(r, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") == 62);
    CHECK(stat(r, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 64);
    CHECK(stat(r, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum") == 0);
    CHECK(stat(r, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum") == 2);  // one cycle per half-wave
    CHECK(stat(r, "gpc__cycles_elapsed.max") == stat(r, "cycles"));
    CHECK(stat(r, "smsp__inst_executed.sum") == 2);
}

TEST_CASE("l1.unified_bytes: a kernel's L1 is what its LDS carve-out leaves", "[sim][memory]") {
    // One 64-lane wave per workgroup with 5000 bytes of LDS (5120 in 512-byte units). Resident
    // workgroups per CU: 16 by cu.max_workgroups, 40 by wave slots, 64K / 5120 = 12 by LDS: 12.
    // They need 61,440 bytes: the smallest carve-out that holds them is 64K, so the L1 gets 192K.
    const std::string t = "dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1 lds 5000\nwave 0 0\n"
                          "ld lds 4 0x10 all affine 0 4\nend\n";
    auto r = run_text(t, {{"l1.unified_bytes", "256K"}, {"lds.carveouts", "0,8K,16K,32K,64K"}});
    CHECK(stat(r, "occupancy.workgroups_per_cu") == 12);
    CHECK(stat(r, "occupancy.lds_carveout_bytes") == 65536);
    CHECK(stat(r, "occupancy.l1_bytes") == 196608);
}

TEST_CASE("lds.reserved_bytes: each workgroup holds a reserved share besides its own LDS", "[sim][memory]") {
    // As above, but each workgroup also holds 1 KiB: 5120 + 1024 = 6144 bytes. By LDS 64K / 6144 = 10
    // workgroups fit (12 without the share); they need 61,440 bytes: carve-out 64K, L1 192K.
    const std::string t = "dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1 lds 5000\nwave 0 0\n"
                          "ld lds 4 0x10 all affine 0 4\nend\n";
    auto r = run_text(t, {{"l1.unified_bytes", "256K"}, {"lds.carveouts", "0,8K,16K,32K,64K"}, {"lds.reserved_bytes", "1K"}});
    CHECK(stat(r, "occupancy.limit_lds") == 10);
    CHECK(stat(r, "occupancy.workgroups_per_cu") == 10);
    CHECK(stat(r, "occupancy.lds_carveout_bytes") == 65536);
    CHECK(stat(r, "occupancy.l1_bytes") == 196608);
}

// The kernel above (5120 bytes of LDS a workgroup) asking for a carve-out of PCT % of the storage, on
// carve-outs up to 64K with a 32K minimum.
namespace {
RunResult run_preferring(int pct) {
    const std::string t = "dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1 lds 5000 carveout " +
                          std::to_string(pct) + "\nwave 0 0\nld lds 4 0x10 all affine 0 4\nend\n";
    return run_text(t, {{"l1.unified_bytes", "256K"}, {"lds.carveouts", "0,8K,16K,32K,64K"}, {"lds.min_carveout", "32K"}});
}
}  // namespace

TEST_CASE("kernel carveout: a preferred carve-out sets the L1 and limits the resident workgroups", "[sim][memory]") {
    // 50 % of the largest carve-out (64K) is 32,768 bytes, 6 blocks of 5,000: the 32K carve-out, which
    // holds 6 workgroups (12 without the preference); the L1 gets 224K.
    auto r = run_preferring(50);
    CHECK(stat(r, "occupancy.limit_lds") == 6);
    CHECK(stat(r, "occupancy.workgroups_per_cu") == 6);
    CHECK(stat(r, "occupancy.lds_carveout_bytes") == 32768);
    CHECK(stat(r, "occupancy.l1_bytes") == 229376);
}

TEST_CASE("kernel carveout: 0 % gets the smallest carve-out that holds one workgroup even below the minimum", "[sim][memory]") {
    // The 8K carve-out holds one workgroup; lds.min_carveout (the driver's choice without a preference)
    // does not apply. One workgroup a CU, the L1 248K.
    auto r = run_preferring(0);
    CHECK(stat(r, "occupancy.workgroups_per_cu") == 1);
    CHECK(stat(r, "occupancy.lds_carveout_bytes") == 8192);
    CHECK(stat(r, "occupancy.l1_bytes") == 253952);
}

// No LDS: 16 workgroups (cu.max_workgroups) holding 512 bytes each (the reserved share) need 8K.
namespace {
const char* kNoLds = "dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1\nwave 0 0\n"
                     "ld global 4 0x10 all affine 0 4\nwait\nend\n";
}

TEST_CASE("lds.reserved_bytes: a kernel without LDS gets the carve-out its reserved shares need", "[sim][memory]") {
    auto r = run_text(kNoLds, {{"l1.unified_bytes", "256K"}, {"lds.carveouts", "0,8K,16K,32K,64K"}, {"lds.reserved_bytes", "512"}});
    CHECK(stat(r, "occupancy.lds_carveout_bytes") == 8192);
    CHECK(stat(r, "occupancy.l1_bytes") == 253952);
}

TEST_CASE("lds.min_carveout: a kernel that needs less still gets the minimum carve-out", "[sim][memory]") {
    // The 8K it needs is below the minimum: it gets 32K, and the L1 224K.
    auto r = run_text(kNoLds, {{"l1.unified_bytes", "256K"},
                               {"lds.carveouts", "0,8K,16K,32K,64K"},
                               {"lds.reserved_bytes", "512"},
                               {"lds.min_carveout", "32K"}});
    CHECK(stat(r, "occupancy.lds_carveout_bytes") == 32768);
    CHECK(stat(r, "occupancy.l1_bytes") == 229376);
}

// One L2 channel of 2 KiB, 16 ways: a single set of 16 lines. The L2 starts with 4 foreign dirty
// lines (512 bytes), the oldest of all. One wave reads 4 bytes every 32 bytes: 64 lanes touch 16
// lines of 128 bytes, 48 lanes 12. Twelve fills find free ways; a 13th to 16th evict the four
// foreign lines, whose 512 bytes go to DRAM.
namespace {
const std::initializer_list<std::pair<const char*, const char*>> kOneSet = {
    {"l2.channels", "1"}, {"l2.size_bytes", "2K"}, {"l2.assoc", "16"}, {"l2.dirty_at_launch_bytes", "512"}};
}

TEST_CASE("l2.dirty_at_launch_bytes: foreign dirty lines are written back when evicted", "[sim][memory]") {
    auto r = run_text(one_wave_trace(64, 64, "ld global 4 0x10 all affine 0 32\nwait"), kOneSet);
    CHECK(stat(r, "dram.read_bytes") == 2048);
    CHECK(stat(r, "l2.writebacks") == 4);
    CHECK(stat(r, "dram.write_bytes") == 512);
}

TEST_CASE("l2.dirty_at_launch_bytes: foreign dirty lines stay while the set has room", "[sim][memory]") {
    auto r = run_text(one_wave_trace(64, 64, "ld global 4 0x10 0xffffffffffff affine 0 32\nwait"), kOneSet);
    CHECK(stat(r, "dram.read_bytes") == 1536);
    CHECK(stat(r, "l2.writebacks") == 0);
    CHECK(stat(r, "dram.write_bytes") == 0);
}

TEST_CASE("l2.dirty_limit_bytes: past the limit the oldest dirty line is written back", "[sim][memory]") {
    // One L2 channel keeping at most 256 bytes (8 sectors, 2 lines) dirty. Three stores of a full
    // 128-byte line each: the third brings 12 dirty sectors, so line 0 (the oldest) is written back
    // and stays, clean; no line is evicted.
    auto r = run_text(one_wave_trace(64, 64,
                                     "st global 4 0x10 0xffffffff affine 0x0 4\nst global 4 0x18 0xffffffff affine 0x80 4\n"
                                     "st global 4 0x20 0xffffffff affine 0x100 4\nwait"),
                      {{"l2.channels", "1"}, {"l2.dirty_limit_bytes", "256"}});
    CHECK(stat(r, "l2.writebacks") == 1);
    CHECK(stat(r, "l2.writeback_bytes") == 128);
    CHECK(stat(r, "dram.write_bytes") == 128);
}

// One L2 channel of 2 KiB, 4 ways, sets by line number: 4 sets of 4 lines. A limit of 512 bytes is 16
// sectors, 4 (one line) a set with l2.dirty_scope = set. Lines 0 and 4 share set 0: storing both whole
// leaves it 8 dirty sectors, so line 0, the less recently used, is written back (128 bytes) and stays;
// with the limit over the whole L2 (16 sectors) nothing is. Lines 0 and 1 are in sets 0 and 1: a line
// each, within their shares.
namespace {
const char* kTwoStores[] = {"st global 4 0x10 0xffffffff affine 0x0 4\nst global 4 0x18 0xffffffff affine 0x200 4\nwait",
                            "st global 4 0x10 0xffffffff affine 0x0 4\nst global 4 0x18 0xffffffff affine 0x80 4\nwait"};
RunResult two_stores(int which, const char* scope) {
    return run_text(one_wave_trace(64, 64, kTwoStores[which]),
                    {{"l2.channels", "1"}, {"l2.size_bytes", "2K"}, {"l2.assoc", "4"}, {"l2.set_hash", "off"},
                     {"l2.dirty_limit_bytes", "512"}, {"l2.dirty_scope", scope}});
}
}  // namespace

TEST_CASE("l2.dirty_scope = set: a set past its share writes back its least recently used dirty line", "[sim][memory]") {
    auto r = two_stores(0, "set");
    CHECK(stat(r, "l2.writebacks") == 1);
    CHECK(stat(r, "dram.write_bytes") == 128);
}

TEST_CASE("l2.dirty_scope = cache: the same two lines stay dirty within the L2's limit", "[sim][memory]") {
    CHECK(stat(two_stores(0, "cache"), "l2.writebacks") == 0);
}

TEST_CASE("l2.dirty_scope = set: two lines in two sets stay dirty within their shares", "[sim][memory]") {
    CHECK(stat(two_stores(1, "set"), "l2.writebacks") == 0);
}

TEST_CASE("l2.dirty_scope = set: a set of 128 ways past its share writes back its older line", "[sim][memory]") {
    // 16 KiB, 128 ways: one set of 128 lines; a limit of 128 bytes (4 sectors) is that set's share.
    // Lines 0 and 1 stored whole: 8 dirty sectors, so line 0 is written back (128 bytes).
    auto r = run_text(one_wave_trace(64, 64, kTwoStores[1]),
                      {{"l2.channels", "1"}, {"l2.size_bytes", "16K"}, {"l2.assoc", "128"}, {"l2.set_hash", "off"},
                       {"l2.dirty_limit_bytes", "128"}, {"l2.dirty_scope", "set"}});
    CHECK(stat(r, "l2.writebacks") == 1);
    CHECK(stat(r, "dram.write_bytes") == 128);
}
