// dcutrace's host side, without a GPU: reading SASS (registers, branches,
// source lines) and assembling captured warp instructions into trace records
// with the compute and wait records that the SASS implies (docs/CAPTURE.md).
#include <catch2/catch.hpp>

#include <atomic>
#include <cstring>
#include <thread>

#include "traces/capture/nvidia/assemble.h"
#include "traces/capture/nvidia/drain.h"
#include "traces/capture/nvidia/sass.h"

using namespace dcutrace;
using dcusim::trace::format_record;
using dcusim::trace::Record;

namespace {

// A loop that loads through the read-only path, adds, reads shared memory,
// and after the loop stores a value the shared load produced.
const char* kSass = R"(
//--------------------- .text._Z4testPf --------------------------
        .section        .text._Z4testPf,"ax",@progbits
_Z4testPf:
.text._Z4testPf:
        //## File "/x/k.hip", line 5
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   S2R R0, SR_TID.X ;
        /*0020*/                   IMAD.WIDE R2, R0, 0x4, R2 ;
        //## File "/x/k.hip", line 7
.L_x_1:
        /*0030*/                   LDG.E.CONSTANT R4, desc[UR4][R2.64] ;
        /*0040*/                   IADD3 R6, R6, 0x1, RZ ;
        /*0050*/                   FADD R5, R4, R5 ;
        /*0060*/                   LDS.128 R8, [R6] ;
        /*0070*/                   ISETP.NE.AND P0, PT, R6, 0x10, PT ;
        /*0080*/               @P0 BRA `(.L_x_1) ;
        /*0090*/                   STG.E desc[UR4][R2.64], R8 ;
        /*00a0*/                   EXIT ;
.L_x_2:
        /*00b0*/                   BRA `(.L_x_2);
)";

class Collect : public dcusim::trace::RecordSink {
public:
    void write(const Record& r) override { lines.push_back(format_record(r)); }
    void finish() override {}
    std::vector<std::string> lines;
};

CapturedInstr mem(uint32_t warp, uint64_t pc, uint32_t space, uint32_t op, uint32_t log2b, uint64_t base,
                  int64_t stride, uint32_t mask = 0xffffffffu) {
    CapturedInstr c;
    c.warp = warp;
    c.pc = pc;
    c.info = raw_info(RawMem, space, op, log2b) | kInfoAffine;
    c.mask = mask;
    c.base = base;
    c.stride = stride;
    return c;
}

LaunchCapture launch_of(uint32_t threads) {
    LaunchCapture l;
    l.kernel.name = "test";
    l.kernel.block = {threads, 1, 1};
    return l;
}

// The records one warp's captured instructions assemble into, walking f.
std::vector<std::string> assembled(const SassFunction& f, std::vector<CapturedInstr> instrs, AssembleStats* st = nullptr) {
    LaunchCapture l = launch_of(32);
    l.instrs = std::move(instrs);
    Collect out;
    AssembleStats s = assemble_launch(l, &f, {}, out);
    if (st) *st = s;
    return out.lines;
}

}  // namespace

TEST_CASE("SASS: instructions, registers, anchors, branch targets and lines", "[capture]") {
    auto fns = parse_sass(kSass);
    REQUIRE(fns.count("_Z4testPf") == 1);
    const SassFunction& f = fns.at("_Z4testPf");
    REQUIRE(f.instrs.size() == 12);
    CHECK(f.index(0x30) == 3);
    CHECK(f.index(0x34) == -1);
    const SassInstr& ldg = f.instrs[3];
    CHECK(ldg.anchor);
    CHECK(ldg.load);
    CHECK(ldg.readonly);
    CHECK(ldg.writes.count() == 1);
    CHECK(ldg.writes.test(4));
    CHECK(ldg.reads.test(2));
    CHECK(ldg.reads.test(3));  // the .64 address pair
    CHECK(ldg.line == "k.hip:7");
    CHECK(f.instrs[0].line == "k.hip:5");
    CHECK(f.instrs[2].writes.test(2));  // IMAD.WIDE writes a pair
    CHECK(f.instrs[2].writes.test(3));
    const SassInstr& lds = f.instrs[6];
    CHECK(lds.load);
    CHECK_FALSE(lds.readonly);
    CHECK(lds.writes.count() == 4);  // .128: R8-R11
    CHECK(lds.writes.test(11));
    CHECK(f.instrs[8].branch_target == 3);
    CHECK(f.instrs[11].branch_target == 11);  // the self-loop after EXIT
    CHECK(f.instrs[9].anchor);
    CHECK_FALSE(f.instrs[9].load);  // a store: all its registers are read
    CHECK(f.instrs[9].reads.test(8));
    CHECK(f.instrs[9].writes.none());
    CHECK(f.instrs[10].exit);
    CHECK(f.instrs[11].opcode == "BRA");
    // Anchors (memory instructions) at 3, 6 and 9 are not compute.
    CHECK(f.compute_between(0, 3) == 3);
    CHECK(f.compute_between(3, 7) == 2);
    CHECK(f.compute_between(0, 12) == 9);
}

TEST_CASE("SASS: atomics are integer or floating point by their type modifier", "[capture]") {
    const SassFunction f = parse_sass(R"(
.text._Z1av:
        /*0000*/                   REDG.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R5 ;
        /*0010*/                   REDG.E.ADD.STRONG.GPU desc[UR4][R2.64], R5 ;
        /*0020*/                   ATOMG.E.MIN.S32.STRONG.GPU PT, R7, desc[UR4][R2.64], R5 ;
        /*0030*/                   ATOM.E.ADD.F16x2.RN.STRONG.GPU PT, R7, desc[UR4][R2.64], R5 ;
        /*0040*/                   ATOMS.POPC.INC.32 RZ, [R4+UR4] ;
        /*0050*/                   RED.E.ADD.F64.RN.STRONG.GPU desc[UR4][R2.64], R6 ;
        /*0060*/                   LDG.E.F32 R4, desc[UR4][R2.64] ;
        /*0070*/                   EXIT ;
)").at("_Z1av");
    REQUIRE(f.instrs.size() == 8);
    // .FTZ begins with F but names no type: the first is float for its .F32, the second int.
    using dcusim::trace::AtomicKind;
    const AtomicKind want[] = {AtomicKind::Float, AtomicKind::Int, AtomicKind::Int,   AtomicKind::Float,
                               AtomicKind::Int,   AtomicKind::Float, AtomicKind::Unknown, AtomicKind::Unknown};
    for (size_t i = 0; i < 8; ++i) CHECK(f.instrs[i].atomic == want[i]);
}

TEST_CASE("Assembly: an atomic's PC is declared int or float", "[capture]") {
    const SassFunction f = parse_sass(R"(
.text._Z1bv:
        /*0000*/                   REDG.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R5 ;
        /*0010*/                   REDG.E.ADD.STRONG.GPU desc[UR4][R2.64], R5 ;
        /*0020*/                   EXIT ;
)").at("_Z1bv");
    LaunchCapture l = launch_of(32);
    l.instrs.push_back(mem(0, 0x0, RawGlobal, RawAtomic, 2, 0x1000, 0));
    l.instrs.push_back(mem(0, 0x10, RawGlobal, RawAtomic, 2, 0x1000, 0));
    Collect out;
    assemble_launch(l, &f, {}, out);
    REQUIRE(out.lines.size() >= 3);
    CHECK(out.lines[1] == "pc 0x0 atomic float");
    CHECK(out.lines[2] == "pc 0x10 atomic int");
}

TEST_CASE("SASS: paths between anchors follow the loop's backward branch", "[capture]") {
    const SassFunction f = parse_sass(kSass).at("_Z4testPf");
    SassPath p = path_between(f, -1, 3);  // entry to the first load
    REQUIRE(p.part.size() == 1);
    CHECK(p.part[0].first == 0);
    CHECK(p.part[0].last == 3);
    p = path_between(f, 6, 3);  // round the loop: 7, 8 (the branch), then from its target 3 to 3
    REQUIRE(p.part.size() == 2);
    CHECK(p.part[0].first == 7);
    CHECK(p.part[0].last == 9);
    CHECK(p.part[1].first == 3);
    CHECK(p.part[1].last == 3);
    p = path_to_exit(f, 9);  // after the STG: the EXIT, not the self-loop behind it
    CHECK(p.part[0].first == 10);
    CHECK(p.part[0].last == 11);
}

TEST_CASE("SASS: a forward path jumps over code an unguarded branch skips", "[capture]") {
    const SassFunction f = parse_sass(R"(
.text._Z1fv:
        /*0000*/                   LDG.E R2, desc[UR4][R4.64] ;
        /*0010*/                   BRA `(.L_x_0) ;
        /*0020*/                   CALL.REL.NOINC `($slow) ;
        /*0030*/                   IADD3 R0, R0, 0x1, RZ ;
.L_x_0:
        /*0040*/                   IADD3 R3, R2, 0x1, RZ ;
        /*0050*/               @P0 BRA `(.L_x_1) ;
        /*0060*/                   IADD3 R6, R6, 0x1, RZ ;
.L_x_1:
        /*0070*/                   STG.E desc[UR4][R4.64], R3 ;
        /*0080*/                   EXIT ;
)").at("_Z1fv");
    SassPath p = path_between(f, 0, 7);
    REQUIRE(p.part.size() == 2);  // 1 (the branch), then 4..6: the guarded branch is assumed not taken
    CHECK(p.part[0].first == 1);
    CHECK(p.part[0].last == 2);
    CHECK(p.part[1].first == 4);
    CHECK(p.part[1].last == 7);
    LaunchCapture l = launch_of(32);
    l.instrs.push_back(mem(0, 0x00, RawGlobal, RawLoad, 2, 0x100, 4));
    l.instrs.push_back(mem(0, 0x70, RawGlobal, RawStore, 2, 0x100, 4));
    Collect out;
    assemble_launch(l, &f, {}, out);
    // BRA, then IADD3 R3 <- R2 waits for the load, then the guarded BRA and IADD3; STG; EXIT.
    std::vector<std::string> want = {"kernel test grid 1 1 1 block 32 1 1", "wave 0 0",
                                     "ld global 4 0x0 all affine 0x100 0x4", "compute 1", "wait", "compute 3",
                                     "st global 4 0x70 all affine 0x100 0x4", "compute 1", "end"};
    CHECK(out.lines == want);
}

TEST_CASE("Resource usage per function", "[capture]") {
    auto r = parse_res_usage(
        "Resource usage:\n Common:\n  GLOBAL:0\n Function _Z4testPf:\n"
        "  REG:40 STACK:16 SHARED:4352 LOCAL:384 CONSTANT[0]:544 TEXTURE:0 SURFACE:0 SAMPLER:0\n");
    REQUIRE(r.count("_Z4testPf") == 1);
    CHECK(r["_Z4testPf"].regs == 40);
    CHECK(r["_Z4testPf"].stack == 16);
    CHECK(r["_Z4testPf"].shared == 4352);
    CHECK(r["_Z4testPf"].local == 384);
}

TEST_CASE("Assembly: compute counts and waits from the SASS, two loop trips", "[capture]") {
    const SassFunction f = parse_sass(kSass).at("_Z4testPf");
    LaunchCapture l = launch_of(32);
    for (int trip = 0; trip < 2; ++trip) {
        l.instrs.push_back(mem(0, 0x30, RawGlobal, RawLoad, 2, 0x1000, 4));
        l.instrs.push_back(mem(0, 0x60, RawShared, RawLoad, 4, 0, 16));
    }
    l.instrs.push_back(mem(0, 0x90, RawGlobal, RawStore, 2, 0x2000, 4));
    Collect out;
    AssembleStats st = assemble_launch(l, &f, {}, out);
    // By hand: entry -> LDG runs 3 instructions. LDG -> LDS: IADD3, then FADD reads R4 (the
    // LDG's) -> wait. LDS -> LDG round the loop: ISETP, BRA. Second trip as the first, but the
    // LDS's R8-R11 are outstanding too. LDS -> STG: ISETP, BRA, then the STG reads R8 -> wait.
    // After the STG: EXIT.
    std::vector<std::string> want = {
        "kernel test grid 1 1 1 block 32 1 1",
        "pc 0x30 readonly line k.hip:7",
        "pc 0x60 line k.hip:7",
        "pc 0x90 line k.hip:7",
        "wave 0 0",
        "compute 3", "ld global 4 0x30 all affine 0x1000 0x4",
        "compute 1", "wait", "compute 1", "ld lds 16 0x60 all affine 0x0 0x10",
        "compute 2", "ld global 4 0x30 all affine 0x1000 0x4",
        "compute 1", "wait", "compute 1", "ld lds 16 0x60 all affine 0x0 0x10",
        "compute 2", "wait", "st global 4 0x90 all affine 0x2000 0x4",
        "compute 1",
        "end"};
    CHECK(out.lines == want);
    CHECK(st.waits == 3);
    CHECK(st.compute == 12);
    CHECK(st.mem == 5);
}

TEST_CASE("Assembly: waves in block order, lists, masks and constant ranges", "[capture]") {
    LaunchCapture l = launch_of(48);  // warp 1 has 16 lanes
    l.kernel.grid = {2, 1, 1};
    // Captured out of order: block 1 first, then block 0's warp 1 before its warp 0.
    CapturedInstr a = mem(0, 0x10, RawGlobal, RawLoad, 2, 0x9000, 0);
    a.block = 1;
    l.instrs.push_back(a);
    l.instrs.push_back(mem(1, 0x10, RawGlobal, RawLoad, 2, 0x100, 4, 0xffffu));
    CapturedInstr list = mem(0, 0x20, RawLocal, RawStore, 3, 0, 0, 0x5u);  // lanes 0 and 2
    list.info &= ~kInfoAffine;
    list.addr_index = 0;
    l.addrs = {0x40, 0x48};
    l.instrs.push_back(list);
    l.instrs.push_back(mem(0, 0x10, RawGlobal, RawLoad, 2, 0x9010, 0, 0x3u));
    Collect out;
    AssembleStats st = assemble_launch(l, nullptr, {{0x9000, 0x9100}}, out);
    std::vector<std::string> want = {
        "kernel test grid 2 1 1 block 48 1 1",
        "wave 0 0", "st local 8 0x20 0x5 list 0x40 0x48", "ld const 4 0x10 0x3 affine 0x9010 0x0",
        "wave 0 1", "ld global 4 0x10 all affine 0x100 0x4",
        "wave 1 0", "ld const 4 0x10 all affine 0x9000 0x0",
        "end"};
    CHECK(out.lines == want);
    CHECK(st.const_accesses == 2);
    CHECK(st.waits == 0);  // no SASS: no compute or wait records
    CHECK(st.compute == 0);
}

TEST_CASE("Capture ring: four drain threads give back every record in slot order, twice", "[capture]") {
    // A producer plays the GPU: it waits for room as the patches do, writes a record,
    // and publishes its sequence number last. The ring (256 slots) wraps many times.
    const uint32_t cap = 256;
    std::vector<RawRecord> ring(cap);
    std::memset(ring.data(), 0, sizeof(RawRecord) * cap);
    volatile unsigned long long drained = 0;
    RingDrain drain(ring.data(), cap, &drained, 4);
    auto produce = [&](uint64_t first, uint64_t n) {
        for (uint64_t s = first; s < first + n; ++s) {
            while (s - drained >= cap) std::this_thread::yield();
            RawRecord& r = ring[s % cap];
            const bool list = s % 3 == 0;
            r.info = raw_info(s % 5 == 0 ? RawBarrier : RawMem, RawGlobal, RawLoad, 2) | (list ? 0 : kInfoAffine);
            r.mask = list ? 0x5u : 0xffffffffu;
            r.block = s % 7;
            r.warp = uint32_t(s % 2);
            r.pc = 0x1000 + s;
            r.base = s * 4;
            r.stride = 4;
            r.addr[0] = s;
            r.addr[2] = s + 1;
            std::atomic_thread_fence(std::memory_order_release);
            *reinterpret_cast<volatile uint32_t*>(&r.seq) = uint32_t(s + 1);
        }
    };
    for (uint64_t first : {uint64_t(0), uint64_t(5000)}) {
        const uint64_t n = first ? 1000 : 5000;
        drain.start(first, 0x1000);
        std::thread gpu(produce, first, n);
        gpu.join();
        LaunchCapture out;
        drain.finish(first + n, out);
        REQUIRE(out.instrs.size() == n);
        size_t lists = 0;
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t s = first + i;
            const CapturedInstr& c = out.instrs[i];
            REQUIRE(c.pc == s);  // slot order, PC relative to the function base
            CHECK(c.block == s % 7);
            if (!(c.info & kInfoAffine) && raw_kind(c.info) != RawBarrier) {
                REQUIRE(c.addr_index + 1 < out.addrs.size());
                CHECK(out.addrs[c.addr_index] == s);  // lane 0
                CHECK(out.addrs[c.addr_index + 1] == s + 1);  // lane 2
                ++lists;
            } else {
                CHECK(c.base == s * 4);
            }
        }
        CHECK(out.addrs.size() == 2 * lists);
        CHECK(drained == first + n);
    }
}

TEST_CASE("Assembly: conversions and MUFU count as long-latency compute", "[capture]") {
    const SassFunction f = parse_sass(R"(
.text._Z1gv:
        /*0000*/                   LDS R4, [R2] ;
        /*0010*/                   FADD R5, R5, 1 ;
        /*0020*/                   F2I.TRUNC.NTZ R6, R5 ;
        /*0030*/                   I2FP.F32.S32 R7, R6 ;
        /*0040*/                   MUFU.RSQ R8, R7 ;
        /*0050*/                   LOP3.LUT R9, R8, 0x1, RZ, 0xc0, !PT ;
        /*0060*/                   STS [R2], R9 ;
        /*0070*/                   EXIT ;
)").at("_Z1gv");
    CHECK(f.instrs[2].long_latency);       // F2I
    CHECK_FALSE(f.instrs[3].long_latency); // I2FP runs in the ALU pipe
    CHECK(f.instrs[4].long_latency);       // MUFU
    AssembleStats st;
    auto lines = assembled(f, {mem(0, 0x00, RawShared, RawLoad, 2, 0, 4), mem(0, 0x60, RawShared, RawStore, 2, 0, 4)}, &st);
    // LDS, then FADD F2I I2FP MUFU LOP3 (none reads R4: no wait), STS, EXIT.
    std::vector<std::string> want = {"kernel test grid 1 1 1 block 32 1 1", "wave 0 0",
                                     "ld lds 4 0x0 all affine 0x0 0x4", "compute 5 long 2",
                                     "st lds 4 0x60 all affine 0x0 0x4", "compute 1", "end"};
    CHECK(lines == want);
    CHECK(st.compute == 6);
    CHECK(st.long_compute == 2);
}

TEST_CASE("SASS: a guarded branch over a call is the fast path: taken", "[capture]") {
    // The shape of a 64-bit remainder: when both operands fit in 32 bits the
    // branch skips the call to the 64-bit routine and runs the inline 32-bit code.
    const SassFunction f = parse_sass(R"(
.text._Z1hv:
        /*0000*/                   LDG.E R2, desc[UR4][R4.64] ;
        /*0010*/                   ISETP.NE.U32.AND P0, PT, R3, RZ, PT ;
        /*0020*/              @!P0 BRA `(.L_x_0) ;
        /*0030*/                   MOV R0, 0x50 ;
        /*0040*/                   CALL.REL.NOINC `($rem64) ;
        /*0050*/                   BRA `(.L_x_1) ;
.L_x_0:
        /*0060*/                   I2F.U32.RP R0, R7 ;
        /*0070*/                   MUFU.RCP R0, R0 ;
        /*0080*/                   IMAD.HI.U32 R5, R5, R2, RZ ;
.L_x_1:
        /*0090*/                   STG.E desc[UR4][R4.64], R5 ;
        /*00a0*/                   EXIT ;
)").at("_Z1hv");
    CHECK(f.instrs[4].call);
    CHECK(f.instrs[8].mid_latency);
    CHECK_FALSE(f.instrs[1].mid_latency);
    CHECK_FALSE(parse_sass(kSass).at("_Z4testPf").instrs[2].mid_latency);  // IMAD.WIDE: an ALU instruction
    SassPath p = path_between(f, 0, 9);
    REQUIRE(p.part.size() == 2);  // 1..2 (ISETP, the branch), then 6..8: not the call's side
    CHECK(p.part[0].first == 1);
    CHECK(p.part[0].last == 3);
    CHECK(p.part[1].first == 6);
    CHECK(p.part[1].last == 9);
    AssembleStats st;
    auto lines = assembled(f, {mem(0, 0x00, RawGlobal, RawLoad, 2, 0x100, 4), mem(0, 0x90, RawGlobal, RawStore, 2, 0x100, 4)}, &st);
    // ISETP, BRA; then I2F and MUFU (long), and the IMAD.HI (middle), which reads the load's R2: a wait first.
    std::vector<std::string> want = {"kernel test grid 1 1 1 block 32 1 1", "wave 0 0",
                                     "ld global 4 0x0 all affine 0x100 0x4", "compute 4 long 2", "wait",
                                     "compute 1 mid 1", "st global 4 0x90 all affine 0x100 0x4", "compute 1", "end"};
    CHECK(lines == want);
    CHECK(st.mid_compute == 1);
    CHECK(st.long_compute == 2);
}

TEST_CASE("Assembly: a predicated-off memory instruction still issues: one compute slot", "[capture]") {
    // The unguarded LDS at 0x18 was not run either: the walk guessed wrong there, and it does not count.
    // The guarded LDS at 0x10 and LDG at 0x20 issued with no lane on; the LDS is marked (`lds 1`): it
    // takes a slot of the shared-memory pipe.
    const SassFunction f = parse_sass(R"(
.text._Z1kv:
        /*0000*/                   LDG.E R2, desc[UR4][R4.64] ;
        /*0010*/              @!P0 LDS R3, [R5] ;
        /*0018*/                   LDS R7, [R5] ;
        /*0020*/               @P1 LDG.E R8, desc[UR4][R4.64+0x4] ;
        /*0028*/                   FADD R6, R6, 1 ;
        /*0030*/                   STG.E desc[UR4][R4.64], R6 ;
        /*0040*/                   EXIT ;
)").at("_Z1kv");
    // The LDS at 0x10 was predicated off: not captured.
    AssembleStats st;
    auto lines = assembled(f, {mem(0, 0x00, RawGlobal, RawLoad, 2, 0x100, 4), mem(0, 0x30, RawGlobal, RawStore, 2, 0x100, 4)}, &st);
    std::vector<std::string> want = {"kernel test grid 1 1 1 block 32 1 1", "wave 0 0",
                                     "ld global 4 0x0 all affine 0x100 0x4", "compute 3 lds 1",
                                     "st global 4 0x30 all affine 0x100 0x4", "compute 1", "end"};
    CHECK(lines == want);
    CHECK(st.lds_compute == 1);
    CHECK(f.instrs[1].shared);
    CHECK_FALSE(f.instrs[3].shared);
}

TEST_CASE("SASS: a guarded branch over a loop's remainder that never ran is taken", "[capture]") {
    // The LDS in the remainder is unguarded: had the warp entered it, the LDS would have run and been
    // captured. Between the LDG and the STG it was not, so the branch around the remainder was taken.
    const SassFunction f = parse_sass(R"(
.text._Z1rv:
        /*0000*/                   LDG.E R2, desc[UR4][R4.64] ;
        /*0010*/                   ISETP.NE.AND P0, PT, R3, RZ, PT ;
        /*0020*/              @!P0 BRA `(.L_x_1) ;
.L_x_0:
        /*0030*/                   F2I.TRUNC.NTZ R6, R5 ;
        /*0040*/                   LDS R7, [R6] ;
        /*0050*/                   IADD3 R3, R3, -0x1, RZ ;
        /*0060*/               @P1 BRA `(.L_x_0) ;
.L_x_1:
        /*0070*/                   FADD R8, R8, 1 ;
        /*0080*/                   STG.E desc[UR4][R4.64], R8 ;
        /*0090*/                   EXIT ;
)").at("_Z1rv");
    auto lines = assembled(f, {mem(0, 0x00, RawGlobal, RawLoad, 2, 0x100, 4), mem(0, 0x80, RawGlobal, RawStore, 2, 0x100, 4)});
    // ISETP, the branch, FADD: not the remainder's F2I, IADD3 and branch.
    std::vector<std::string> want = {"kernel test grid 1 1 1 block 32 1 1", "wave 0 0",
                                     "ld global 4 0x0 all affine 0x100 0x4", "compute 3",
                                     "st global 4 0x80 all affine 0x100 0x4", "compute 1", "end"};
    CHECK(lines == want);
}

namespace {

// Spill code: a loaded value stored to a stack slot, reloaded, used, stored (the test set's
// regspill.hip, mix_spilled, in small).
const char* kSpillSass = R"(
.text._Z1sv:
        /*0000*/                   LDG.E R2, desc[UR4][R4.64] ;
        /*0010*/                   STL [R1+0x8], R2 ;
        /*0020*/                   FADD R5, R5, 1 ;
        /*0030*/                   LDL.LU.64 R2, [R1+0x8] ;
        /*0040*/                   FADD R6, R3, R6 ;
        /*0050*/                   STG.E desc[UR4][R4.64], R6 ;
        /*0060*/                   EXIT ;
)";

}  // namespace

TEST_CASE("SASS: stack-slot LDL and STL, their offset and width", "[capture]") {
    const SassFunction f = parse_sass(R"(
.text._Z1pv:
        /*0000*/                   STL.128 [R1+0x30], R16 ;
        /*0010*/                   LDL R3, [R3] ;
        /*0020*/                   LDL.LU R0, [R1] ;
        /*0030*/                   STL.U8 [R1+0x1f], R2 ;
        /*0040*/                   LDG.E R2, desc[UR4][R1.64+0x8] ;
        /*0050*/                   LDL R4, [R12+0x4] ;
)").at("_Z1pv");
    REQUIRE(f.instrs.size() == 6);
    CHECK(f.instrs[0].stack_local);
    CHECK(f.instrs[0].stack_offset == 0x30);
    CHECK(f.instrs[0].local_bytes == 16);
    CHECK_FALSE(f.instrs[1].stack_local);  // indexed through another register: an array, not a slot
    CHECK(f.instrs[2].stack_local);
    CHECK(f.instrs[2].stack_offset == 0);
    CHECK(f.instrs[2].local_bytes == 4);
    CHECK(f.instrs[3].stack_offset == 0x1f);
    CHECK(f.instrs[3].local_bytes == 1);
    CHECK_FALSE(f.instrs[4].stack_local);  // global
    CHECK_FALSE(f.instrs[5].stack_local);
    for (const auto& in : f.instrs) CHECK(in.anchor);  // until a launch shows the Sanitizer did not report one
}

TEST_CASE("Assembly: spills the Sanitizer did not report come from the SASS, at the frame's slots", "[capture]") {
    const SassFunction f = parse_sass(kSpillSass).at("_Z1sv");
    LaunchCapture l = launch_of(32);
    l.kernel.scratch_bytes = 64;
    l.instrs = {mem(0, 0x00, RawGlobal, RawLoad, 2, 0x100, 4), mem(0, 0x50, RawGlobal, RawStore, 2, 0x100, 4)};
    Collect out;
    AssembleStats st = assemble_launch(l, &f, {}, out);
    // By hand: no captured slot, so R1 = 16 MiB - 64 = 0xffffc0 and the slot at +8 is 0xffffc8. The STL
    // reads R2, which the LDG fills: wait first. FADD: compute 1. The LDL.LU.64 fills R2-R3; the FADD
    // reads R3: wait. After the STG: EXIT.
    std::vector<std::string> want = {"kernel test grid 1 1 1 block 32 1 1", "wave 0 0",
                                     "ld global 4 0x0 all affine 0x100 0x4", "wait",
                                     "st local 4 0x10 all affine 0xffffc8 0x0", "compute 1",
                                     "ld local 8 0x30 all affine 0xffffc8 0x0", "wait", "compute 1",
                                     "st global 4 0x50 all affine 0x100 0x4", "compute 1", "end"};
    CHECK(out.lines == want);
    CHECK(st.spill_pcs == 2);
    CHECK(st.synth_local == 2);
    CHECK(st.compute == 3);
}

TEST_CASE("Assembly: a captured slot access stays, and places the stack for the others", "[capture]") {
    const SassFunction f = parse_sass(kSpillSass).at("_Z1sv");
    // The STL was reported (lanes 0-15 only, as a warp's last captured lanes) at 0xfffb88: R1 = 0xfffb80.
    auto lines = assembled(f, {mem(0, 0x00, RawGlobal, RawLoad, 2, 0x100, 4),
                               mem(0, 0x10, RawLocal, RawStore, 2, 0xfffb88, 0, 0xffffu),
                               mem(0, 0x50, RawGlobal, RawStore, 2, 0x100, 4)});
    std::vector<std::string> want = {"kernel test grid 1 1 1 block 32 1 1", "wave 0 0",
                                     "ld global 4 0x0 all affine 0x100 0x4", "wait",
                                     "st local 4 0x10 0xffff affine 0xfffb88 0x0", "compute 1",
                                     "ld local 8 0x30 0xffff affine 0xfffb88 0x0", "wait", "compute 1",
                                     "st global 4 0x50 all affine 0x100 0x4", "compute 1", "end"};
    CHECK(lines == want);
}

namespace {
// nvdisasm -hex: each instruction's second word is its control word. Stall counts (bits 41-44), the
// scoreboard a load sets (46-48) and the ones an instruction waits for (52-57), built by hand: loads
// A (SB0) and B (SB1); FADD waits for SB0, the next FADD for SB1; loads C, D, E on SB2; DEPBAR.LE SB2, 1
// waits for all of SB2's but the youngest; the STG waits for SB2.
const char* kSassHex = R"(
//--------------------- .text._Z3hexPf --------------------------
.text._Z3hexPf:
        /*0000*/                   LDG.E R4, desc[UR4][R2.64] ;    /* 0x00000a00ff017b82 */
                                                  /* 0x000e020000000000 */
        /*0010*/                   LDG.E R6, desc[UR4][R8.64] ;    /* 0x00000a00ff017b82 */
                                                  /* 0x000e420000000000 */
        /*0020*/                   IADD3 R10, R10, 0x1, RZ ;    /* 0x00000a00ff017b82 */
                                                  /* 0x000fc40000000000 */
        /*0030*/                   FADD R5, R4, R5 ;    /* 0x00000a00ff017b82 */
                                                  /* 0x001fc80000000000 */
        /*0040*/                   FADD R7, R6, R5 ;    /* 0x00000a00ff017b82 */
                                                  /* 0x002fca0000000000 */
        /*0050*/                   LDG.E R12, desc[UR4][R2.64+0x4] ;    /* 0x00000a00ff017b82 */
                                                  /* 0x000e820000000000 */
        /*0060*/                   LDG.E R13, desc[UR4][R2.64+0x8] ;    /* 0x00000a00ff017b82 */
                                                  /* 0x000e820000000000 */
        /*0070*/                   LDG.E R14, desc[UR4][R2.64+0xc] ;    /* 0x00000a00ff017b82 */
                                                  /* 0x000e820000000000 */
        /*0080*/                   DEPBAR.LE SB2, 0x1 ;    /* 0x00000a00ff017b82 */
                                                  /* 0x000fc20000000000 */
        /*0090*/                   IADD3 R7, R12, R13, RZ ;    /* 0x00000a00ff017b82 */
                                                  /* 0x000fcc0000000000 */
        /*00a0*/                   STG.E desc[UR4][R2.64], R7 ;    /* 0x00000a00ff017b82 */
                                                  /* 0x004fc20000000000 */
        /*00b0*/                   EXIT ;    /* 0x00000a00ff017b82 */
                                                  /* 0x000fca0000000000 */
)";
}  // namespace

TEST_CASE("SASS: control words give stall counts, scoreboards and wait masks", "[capture]") {
    const SassFunction f = parse_sass(kSassHex).at("_Z3hexPf");
    REQUIRE(f.instrs.size() == 12);
    CHECK(f.control);
    CHECK_FALSE(parse_sass(kSass).at("_Z4testPf").control);
    CHECK(int(f.instrs[0].write_barrier) == 0);
    CHECK(int(f.instrs[1].write_barrier) == 1);
    CHECK(int(f.instrs[2].write_barrier) == 7);
    CHECK(int(f.instrs[2].stall) == 2);
    CHECK(int(f.instrs[3].wait_mask) == 1);
    CHECK(int(f.instrs[4].wait_mask) == 2);
    CHECK(int(f.instrs[4].stall) == 5);
    CHECK(int(f.instrs[8].depbar_sb) == 2);
    CHECK(int(f.instrs[8].depbar_left) == 1);
    CHECK(int(f.instrs[9].depbar_sb) == -1);
}

TEST_CASE("Assembly: with control words, waits keep the loads no scoreboard names and compute carries stalls", "[capture]") {
    const SassFunction f = parse_sass(kSassHex).at("_Z3hexPf");
    // By hand: A, B, then IADD3 (stall 2); the FADD waits for SB0 (A) and keeps B: wait keep 1; it holds
    // 4; the next FADD waits for SB1 (B): wait; it holds 5. C, D, E on SB2; DEPBAR.LE SB2, 1 waits for C
    // and D, keeping E: wait keep 1; DEPBAR 1 + IADD3 6 = 7 (the IADD3 reads C's and D's registers, which
    // are back); the STG waits for SB2 (E): wait. EXIT holds 5. Without control words, the FADD would wait
    // for A and B together, and the IADD3 for all three.
    std::vector<CapturedInstr> in = {mem(0, 0x00, RawGlobal, RawLoad, 2, 0x1000, 4),
                                     mem(0, 0x10, RawGlobal, RawLoad, 2, 0x2000, 4),
                                     mem(0, 0x50, RawGlobal, RawLoad, 2, 0x1004, 4),
                                     mem(0, 0x60, RawGlobal, RawLoad, 2, 0x1008, 4),
                                     mem(0, 0x70, RawGlobal, RawLoad, 2, 0x100c, 4),
                                     mem(0, 0xa0, RawGlobal, RawStore, 2, 0x1000, 4)};
    std::vector<std::string> want = {
        "kernel test grid 1 1 1 block 32 1 1",
        "wave 0 0",
        "ld global 4 0x0 all affine 0x1000 0x4", "ld global 4 0x10 all affine 0x2000 0x4",
        "compute 1 stall 2", "wait keep 1", "compute 1 stall 4", "wait", "compute 1 stall 5",
        "ld global 4 0x50 all affine 0x1004 0x4", "ld global 4 0x60 all affine 0x1008 0x4",
        "ld global 4 0x70 all affine 0x100c 0x4",
        "wait keep 1", "compute 2 stall 7", "wait", "st global 4 0xa0 all affine 0x1000 0x4",
        "compute 1 stall 5",
        "end"};
    AssembleStats st;
    CHECK(assembled(f, in, &st) == want);
    CHECK(st.waits == 4);
}

namespace {
// A loop the Sanitizer reports nothing from, between a load and a store: IADD3, FFMA, ISETP, BRA.
const char* kSilentLoop = R"(
.text._Z4loopPf:
        /*0000*/                   LDG.E R4, desc[UR4][R2.64] ;
.L_x_0:
        /*0010*/                   IADD3 R6, R6, 0x1, RZ ;
        /*0020*/                   FFMA R5, R5, R5, R5 ;
        /*0030*/                   ISETP.NE.AND P0, PT, R6, 0x8, PT ;
        /*0040*/               @P0 BRA `(.L_x_0) ;
        /*0050*/                   STG.E desc[UR4][R2.64], R5 ;
        /*0060*/                   EXIT ;
)";
}  // namespace

TEST_CASE("Profile counts: FUNCTION,LAUNCH,OFFSET,EXECUTED by launch, and a bad line named", "[capture]") {
    ProfileCounts p;
    std::string err;
    REQUIRE(p.parse("# ncu source counters\nloop,0,0x40,15\nloop,0,16,2\nother,1,0x40,4\n", "c.csv", err));
    REQUIRE(p.find(0, "_Z4loopPf"));
    CHECK(p.find(0, "_Z4loopPf")->at(0x40) == 15);
    CHECK(p.find(0, "loop(float*)")->at(0x10) == 2);
    CHECK(p.find(1, "_ZN2ns5otherILi4EEEvPf")->at(0x40) == 4);
    CHECK(p.find(1, "_Z4loopPf") == nullptr);  // launch 1 ran another kernel
    CHECK(p.find(2, "_Z4loopPf") == nullptr);
    CHECK(kernel_identifier("void ns::strided<4>(float *, int)") == "strided");
    CHECK(kernel_identifier("_Z7stridedILi4EEvPfi") == "strided");
    ProfileCounts bad;
    CHECK_FALSE(bad.parse("loop,0,0x40,15\nloop,0,0x40\n", "c.csv", err));
    CHECK(err == "c.csv:2: expected FUNCTION,LAUNCH,OFFSET,EXECUTED");
    CHECK_FALSE(bad.parse("loop,0,0x40,1.5\n", "c.csv", err));
    CHECK_FALSE(bad.parse("loop,0,0x40,1\nother,0,0x50,1\n", "d.csv", err));
    CHECK(err == "d.csv:2: launch 0 was loop on an earlier line");
}

TEST_CASE("Assembly: a loop with nothing captured goes round as often as the profile's counts say", "[capture]") {
    const SassFunction f = parse_sass(kSilentLoop).at("_Z4loopPf");
    REQUIRE(silent_loops(f) == std::vector<int>{4});
    // Two warps each load, loop, store. The profile ran the BRA 15 times: 7.5 trips a crossing, 6.5 more
    // than the walk's one. Warp 0: 6 more (carry 0.5), 4 x 7 = 28 instructions; warp 1: 7 more, 32.
    LaunchCapture l = launch_of(64);
    for (uint32_t w = 0; w < 2; ++w) {
        l.instrs.push_back(mem(w, 0x00, RawGlobal, RawLoad, 2, 0x1000 + 0x80 * w, 4));
        l.instrs.push_back(mem(w, 0x50, RawGlobal, RawStore, 2, 0x1000 + 0x80 * w, 4));
    }
    PcCounts counts = {{0x40, 15}};
    Collect out;
    AssembleStats st = assemble_launch(l, &f, {}, out, &counts);
    std::vector<std::string> want = {
        "kernel test grid 1 1 1 block 64 1 1",
        "wave 0 0", "ld global 4 0x0 all affine 0x1000 0x4", "compute 28", "st global 4 0x50 all affine 0x1000 0x4",
        "compute 1",
        "wave 0 1", "ld global 4 0x0 all affine 0x1080 0x4", "compute 32", "st global 4 0x50 all affine 0x1080 0x4",
        "compute 1",
        "end"};
    CHECK(out.lines == want);
    CHECK(st.loops_filled == 1);
    // Without counts, once a crossing: 4 instructions.
    Collect once;
    assemble_launch(l, &f, {}, once);
    CHECK(once.lines[3] == "compute 4");
}
