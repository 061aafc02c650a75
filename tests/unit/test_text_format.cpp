// Text trace grammar: statements, resolved masks, and FILE:LINE errors.
#include <catch2/catch.hpp>
#include <sstream>

#include "helpers.h"
#include "traces/format/sink.h"
#include "traces/format/source.h"
#include "traces/format/text_reader.h"

using namespace dcusim::trace;

namespace {
std::vector<Record> parse(const std::string& text) { return dcusim::test::parse_text(text); }
std::string error_of(const std::string& text) { return dcusim::test::text_error_of(text); }
const std::string head = "dcusim-trace 1\nwave_size 64\nkernel k grid 2 1 1 block 96 1 1\n";
}  // namespace

TEST_CASE("every statement of the grammar parses", "[text]") {
    auto r = parse("# comment\n\ndcusim-trace 1\nwave_size 64\n"
                   "kernel my_k grid 2 3 4 block 96 1 1 lds 4096 vgprs 32 sgprs 20 scratch 256 carveout 25\n"
                   "wave 5 1   # second wave of block 5\n"
                   "ld global 4 0x10 all affine 0x1000 4\n"
                   "st lds 8 16 0xf list 0 8 16 24\n"
                   "atom const 16 0x20 0x1 affine 0x10 -0x10\n"
                   "ld local 2 0x30 all affine 0x100 -2\n"
                   "bar 0x40\nwait\nwait 0x50\ncompute 12\nend\n");
    REQUIRE(r.size() == 12);
    CHECK(r[0].kind == RecKind::WaveSize);
    CHECK(r[0].wave_size == 64);
    const KernelInfo& k = r[1].kernel;
    CHECK(k.name == "my_k");
    CHECK(k.grid.count() == 24);
    CHECK(k.block.x == 96);
    CHECK(k.lds_bytes == 4096);
    CHECK(k.vgprs == 32);
    CHECK(k.sgprs == 20);
    CHECK(k.scratch_bytes == 256);
    CHECK(k.carveout_pct == 25);
    CHECK(k.present == (KernelInfo::HasLds | KernelInfo::HasVgprs | KernelInfo::HasSgprs | KernelInfo::HasScratch |
                        KernelInfo::HasCarveout));
    CHECK(r[2].block == 5);
    CHECK(r[2].wave == 1);
    // wave 1 of a 96-thread block has lanes 0-31 only
    CHECK(r[3].mem.mask == 0xffffffffull);
    CHECK(r[3].mem.mask_all);
    CHECK(r[3].mem.base == 0x1000);
    CHECK(r[4].mem.op == Op::Store);
    CHECK(r[4].mem.space == Space::Lds);
    CHECK(r[4].mem.addrs == std::vector<uint64_t>{0, 8, 16, 24});
    CHECK(r[5].mem.op == Op::Atomic);
    CHECK(r[5].mem.space == Space::Const);
    CHECK(r[5].mem.stride == -16);
    CHECK(r[6].mem.space == Space::Local);
    CHECK(r[7].kind == RecKind::Barrier);
    CHECK(r[7].pc == 0x40);
    CHECK(!r[8].has_pc);
    CHECK(r[9].has_pc);
    CHECK(r[10].count == 12);
    CHECK(r[11].kind == RecKind::End);
}

TEST_CASE("text writer reproduces canonical statements", "[text]") {
    std::string text = head + "pc 0x10 readonly\nwave 1 0\nld global 4 0x10 all affine 0x1000 0x4\nst lds 8 0x10 0x3 list 0x8 0x0\n"
                              "atom global 4 0x14 0x1 affine 0x0 -0x4\nbar 0x18\nwait\nwait 0x1c\ncompute 3\nend\n";
    std::ostringstream o;
    TextWriter w(o);
    for (const auto& r : parse(text)) w.write(r);
    w.finish();
    CHECK(o.str() == text);
}

TEST_CASE("malformed text traces name FILE:LINE", "[text][bad-input]") {
    CHECK(error_of("wave_size 64\n") == "t.trace:1: first line must be 'dcusim-trace 1'");
    CHECK(error_of("dcusim-trace 2\n") == "t.trace:1: unsupported text trace version '2' (this dcusim reads version 1)");
    CHECK(error_of("dcusim-trace 1\nwave_size 48\n") == "t.trace:2: wave_size must be 32 or 64, not 48");
    CHECK(error_of("dcusim-trace 1\nkernel k grid 1 1 1 block 64 1 1\n") ==
          "t.trace:2: 'wave_size 32|64' must come before anything else");
    CHECK(error_of(head + "wave 0 0\nld shared 4 0 all affine 0 4\n") ==
          "t.trace:5: unknown space 'shared' (global, lds, const, local)");
    CHECK(error_of(head + "wave 0 0\nld lds 3 0 all affine 0 4\n") ==
          "t.trace:5: access size must be 1, 2, 4, 8 or 16 bytes, not 3");
    CHECK(error_of(head + "wave 0 0\nld lds 4 0 all affine 0\n") ==
          "t.trace:5: expected 'OP SPACE BYTES PC MASK affine BASE STRIDE'");
    CHECK(error_of(head + "wave 0 0\nld lds 4 0 0x3 list 0 4 8\n") == "t.trace:5: list has 3 addresses for 2 active lanes");
    CHECK(error_of(head + "wave 0 0\nld lds 4 0 all list 0 4\n") == "t.trace:5: list has 2 addresses for 64 active lanes");
    CHECK(error_of(head + "wave 0 0\nld lds 4 zz all affine 0 4\n") == "t.trace:5: bad pc 'zz'");
    CHECK(error_of(head + "wave 0 0\nld lds 4 0 255 affine 0 4\n") == "t.trace:5: mask must be 'all' or 0x-hex, not '255'");
    CHECK(error_of(head + "wave 0 0\nld lds 4 0 0x0 affine 0 4\n") == "t.trace:5: empty lane mask");
    CHECK(error_of(head + "wave 1 1\nld lds 4 0 0x100000000 affine 0 4\n") ==
          "t.trace:5: lane mask has lanes that do not exist in wave 1 of a 96-thread block (wave size 64)");
    CHECK(error_of(head + "wave 2 0\n") == "t.trace:4: block 2 outside the grid of 2 blocks");
    CHECK(error_of(head + "wave 0 2\n") == "t.trace:4: wave 2 outside its block (2 waves of 64 lanes)");
    CHECK(error_of(head + "wave 1 0\nwave 0 0\n") ==
          "t.trace:5: block 0 after block 1: blocks must appear in non-decreasing order");
    CHECK(error_of(head + "ld lds 4 0 all affine 0 4\n") ==
          "t.trace:4: memory instruction before any 'wave' statement of its kernel");
    CHECK(error_of(head + "wave 0 0\nfoo 1\n") == "t.trace:5: unknown statement 'foo'");
    CHECK(error_of(head + "wave 0 0\ncompute\n") == "t.trace:5: expected 'compute N [long L] [mid M] [lds S] [stall C]'");
    CHECK(error_of(head + "wave 0 0\ncompute 3 slow 1\n") == "t.trace:5: expected 'compute N [long L] [mid M] [lds S] [stall C]'");
    CHECK(error_of(head + "wave 0 0\ncompute 3 long 4\n") == "t.trace:5: compute: 4 long-latency instructions of 3");
    CHECK(error_of(head + "wave 0 0\ncompute 3 long 2 mid 2\n") ==
          "t.trace:5: compute: 2 middle-latency instructions and 2 long of 3");
    CHECK(error_of(head + "wave 0 0\ncompute 3 long 1 mid 1 lds 2\n") ==
          "t.trace:5: compute: 2 empty LDS instructions, 1 long and 1 middle of 3");
    CHECK(error_of(head + "wave 0 0\ncompute 3 lds 1 mid 1\n") == "t.trace:5: expected 'compute N [long L] [mid M] [lds S] [stall C]'");
    CHECK(error_of(head + "wave 0 0\ncompute 3 mid 1 long 1\n") == "t.trace:5: expected 'compute N [long L] [mid M] [lds S] [stall C]'");
    CHECK(error_of(head + "wave 0 0\n") == "t.trace:4: kernel 'k' has no 'end'");
    CHECK(error_of(head + head.substr(28)) == "t.trace:4: kernel 'k' starts before kernel 'k' has its 'end'");
    CHECK(error_of("dcusim-trace 1\nwave_size 64\nkernel k grid 0 1 1 block 64 1 1\n") ==
          "t.trace:3: dimension '0' must be 1 to 4294967295");
    CHECK(error_of("dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 64 1 1 regs 4\n") ==
          "t.trace:3: unknown kernel attribute 'regs' (lds, vgprs, sgprs, scratch, stream, carveout)");
    CHECK(error_of("dcusim-trace 1\nwave_size 64\nend\n") == "t.trace:3: 'end' outside a kernel");
    CHECK(error_of(head + "wave 0 0\nld lds 4 0 all affine 0x100 -8\n") ==
          "t.trace:5: lds access of 4 bytes at 256 (a lane below 0) leaves the 4 GiB window of LDS and local offsets (4294967296 bytes)");
    CHECK(error_of("dcusim-trace 1\nwave_size 64\nkernel k grid 1 1 1 block 1024 1024 1\n") ==
          "t.trace:3: block of 1048576 threads (dcusim takes at most 65536)");
    CHECK(error_of(head + "wave 0 0\ncompute 0x100000000\n") == "t.trace:5: compute count 4294967296 too large (at most 4294967295)");
    CHECK(error_of(head + "wave 0 0\npc 0x10 readonly\n") ==
          "t.trace:5: 'pc' declarations come after 'kernel' and before its first 'wave'");
    CHECK(error_of(head + "pc 0x10 cached\n") == "t.trace:4: unknown pc attribute 'cached' (readonly, atomic int|float, line FILE:LINE)");
    CHECK(error_of("") == "t.trace: empty trace (no 'dcusim-trace 1' line)");
}
