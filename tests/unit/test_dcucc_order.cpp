// dcucc's record order from the uninstrumented build's SASS (DCUCC_ORDER=sass,
// runtime/host/order.h): a wave's records walked through straight-line SASS
// segments and put in the order of the instructions they map to. The SASS is
// below; every expected order is worked by hand from it.
#include <catch2/catch.hpp>

#include "traces/capture/llvm/runtime/dcucc_abi.h"
#include "traces/capture/llvm/runtime/host/assemble.h"
#include "traces/capture/llvm/runtime/host/order.h"
#include "traces/format/sink.h"

using namespace dcucc::host;
using Lines = std::vector<std::string>;

namespace {

// Segments: 0 = [0, 4) (S2R, three LDS of line 5: [R2+0x8], [R2], [R2+0x4]),
// 1 = [4, 5) (BAR), 2 = [5, 9) (the loop: two LDG of line 7, [R8.64+0x4]
// before [R8.64], the STG of line 8, the branch back), 3 = [9, 10) (EXIT).
const char* kSass = R"(.text._Z1kPf:
        //## File "/src/k.cu", line 5
        /*0000*/                   S2R R0, SR_TID.X ;
        /*0010*/                   LDS R4, [R2+0x8] ;
        /*0020*/                   LDS R5, [R2] ;
        /*0030*/                   LDS R6, [R2+0x4] ;
        //## File "/src/k.cu", line 6
        /*0040*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        //## File "/src/k.cu", line 7
.L_x_0:
        /*0050*/                   LDG.E R7, desc[UR4][R8.64+0x4] ;
        /*0060*/                   LDG.E R9, desc[UR4][R8.64] ;
        //## File "/src/k.cu", line 8
        /*0070*/                   STG.E desc[UR4][R10.64], R7 ;
        /*0080*/               @P0 BRA `(.L_x_0) ;
        /*0090*/                   EXIT ;
)";

// The pass's sites in IR order: the LDS reads at offsets 0, 4, 8; the
// barrier; the loop's loads at 0 and 4, a constant load between them (no
// SASS: an operand there) and the store; a store on a line the SASS lacks.
SiteMap sites() {
    return {{16, {0, "k.cu:5", "_Z1kPf", "ld lds"}},     {32, {0, "k.cu:5", "_Z1kPf", "ld lds"}},
            {48, {0, "k.cu:5", "_Z1kPf", "ld lds"}},     {64, {0, "k.cu:6", "_Z1kPf", "bar"}},
            {80, {0, "k.cu:7", "_Z1kPf", "ld global"}},  {96, {0, "k.cu:7", "_Z1kPf", "ld global"}},
            {112, {0, "k.cu:8", "_Z1kPf", "st global"}}, {128, {0, "k.cu:7", "_Z1kPf", "ld const"}},
            {144, {0, "k.cu:9", "_Z1kPf", "st global"}}};
}

struct Code {
    std::shared_ptr<const std::map<std::string, dcutrace::SassFunction>> mod =
        std::make_shared<const std::map<std::string, dcutrace::SassFunction>>(dcutrace::parse_sass(kSass));
    SiteMap s = sites();
    MachineCode mc;
    Code() {
        mc.module = mod;
        mc.f = &mod->at("_Z1kPf");
        mc.index_of_site = match_sites(s, "_Z1kPf", *mc.f);
    }
};

WaveItem mem(uint32_t pc, uint64_t addr) { return {WaveItem::Mem, pc, 4, 0, addr}; }
WaveItem event(WaveItem::Kind k, uint32_t pc = 0) { return {k, pc, 0, -1, 0}; }

// The PCs of the items in their new order (0 for a wait).
std::vector<uint32_t> ordered(const std::vector<WaveItem>& w, std::vector<int>* at = nullptr) {
    Code c;
    SassOrder o(c.mc, c.s);
    std::vector<size_t> perm;
    std::vector<int> where;
    o.order(w, perm, where);
    if (at) *at = where;
    std::vector<uint32_t> out;
    for (size_t k : perm) out.push_back(w[k].pc);
    return out;
}

}  // namespace

TEST_CASE("dcucc order: SASS segments, widths and address operands", "[dcucc]") {
    Code c;
    std::vector<int> seg_of;
    const auto segs = sass_segments(*c.mc.f, seg_of);
    REQUIRE(segs.size() == 4);
    CHECK((segs[0].first == 0 && segs[0].last == 4 && segs[0].next == std::vector<int>{1}));
    CHECK((segs[1].first == 4 && segs[1].last == 5 && segs[1].next == std::vector<int>{2}));
    // The guarded branch back: on to EXIT, or round again.
    CHECK((segs[2].first == 5 && segs[2].last == 9 && segs[2].next == std::vector<int>{3, 2}));
    CHECK(segs[3].next.empty());
    dcutrace::SassInstr in;
    in.opcode = "LDS.128";
    CHECK(sass_bytes(in) == 16);
    in.opcode = "LDG.E.64.CONSTANT";
    CHECK(sass_bytes(in) == 8);
    in.opcode = "LDG.E.U8";
    CHECK(sass_bytes(in) == 1);
    in.opcode = "LDG.E.CONSTANT";
    CHECK(sass_bytes(in) == 4);
    CHECK(split_address("[R4.64+-0x1c]") == std::make_pair(std::string("R4.64"), int64_t(-28)));
    CHECK(split_address("[R2+0x40]") == std::make_pair(std::string("R2"), int64_t(64)));
    CHECK(split_address("[R21]") == std::make_pair(std::string("R21"), int64_t(0)));
    CHECK(split_address("[R2+UR4+0x8]") == std::make_pair(std::string("R2+UR4"), int64_t(8)));
    CHECK(split_address("[0x100]") == std::make_pair(std::string(""), int64_t(256)));
    CHECK(c.mod->at("_Z1kPf").instrs[5].address == "[R8.64+0x4]");
}

TEST_CASE("dcucc order: records of one segment in SASS order, each loop trip apart", "[dcucc]") {
    // LDS: R2 = 0x100 explains all three offsets, so 0x108 (pc 48) is the first
    // LDS, then 0x100 (16), 0x104 (32). The barrier stays. Each trip of the loop
    // is one visit of segment 2: 0x2004 (96) before 0x2000 (80), then the store;
    // the constant load (128) keeps its slot; the second trip (0x2100) the same,
    // never mixed with the first. The store of line 9 has no SASS: it stays last.
    const std::vector<WaveItem> w = {
        mem(16, 0x100),  mem(32, 0x104), mem(48, 0x108), event(WaveItem::Barrier, 64),
        mem(80, 0x2000), mem(128, 0x40), mem(96, 0x2004), mem(112, 0x3000),
        mem(80, 0x2100), mem(128, 0x40), mem(96, 0x2104), mem(112, 0x3100),
        mem(144, 0x4000)};
    std::vector<int> at;
    CHECK(ordered(w, &at) == std::vector<uint32_t>{48, 16, 32, 64, 96, 128, 80, 112, 96, 128, 80, 112, 144});
    CHECK(at == std::vector<int>{2, 3, 1, 4, 6, -1, 5, 7, 6, -1, 5, 7, -1});
}

TEST_CASE("dcucc order: nothing moves across a wait or a barrier", "[dcucc]") {
    // A wait after the first LDS read: it stays first, the other two swap
    // (0x108 is SASS's first LDS). Records after the barrier that the SASS
    // issues before it (an LDS of line 5) cannot go back: they keep their place.
    const std::vector<WaveItem> w = {mem(16, 0x100), event(WaveItem::Wait), mem(32, 0x104), mem(48, 0x108),
                                     event(WaveItem::Barrier, 64), mem(32, 0x104), mem(16, 0x100)};
    CHECK(ordered(w) == std::vector<uint32_t>{16, 0, 48, 32, 64, 32, 16});
}

TEST_CASE("dcucc order: addresses pick the instructions, ties go to program order", "[dcucc]") {
    // One register (base 1) with offsets -4, 0, 4 and one (base 2) with offset
    // 0, issued first. Four records at 0x100..0x10c: base 1 may be 0x104
    // (0x100..0x108, leaving 0x10c to base 2: records in SASS order 3,0,1,2,
    // three pairs out of order) or 0x108 (0x104..0x10c, leaving 0x100: 0,1,2,3,
    // none): the latter.
    const std::vector<AddrRec> r = {{0, 0x100}, {0, 0x104}, {0, 0x108}, {0, 0x10c}};
    const std::vector<AddrAnchor> a = {{10, 2, 0}, {11, 1, -4}, {12, 1, 0}, {13, 1, 4}};
    CHECK(assign_by_address(r, a) == std::vector<int>{0, 1, 2, 3});
    // Offsets that the addresses fix: [R+8], [R], [R+4] for 0x100, 0x104, 0x108.
    const std::vector<AddrAnchor> b = {{1, 0, 8}, {2, 0, 0}, {3, 0, 4}};
    CHECK(assign_by_address({{0, 0x100}, {0, 0x104}, {0, 0x108}}, b) == std::vector<int>{1, 2, 0});
    // Registers of one instruction each say nothing: program order onto SASS order.
    const std::vector<AddrAnchor> c = {{5, 0, 0}, {6, 1, 0}, {7, 2, 0}};
    CHECK(assign_by_address({{0, 0x300}, {0, 0x100}, {0, 0x200}}, c) == std::vector<int>{0, 1, 2});
}

namespace {

class Collect : public dcusim::trace::RecordSink {
public:
    void write(const dcusim::trace::Record& r) override { lines.push_back(dcusim::trace::format_record(r)); }
    void finish() override {}
    Lines lines;
};

void add(std::vector<uint8_t>& buf, uint32_t kind, uint32_t pc, uint32_t compute, uint32_t space = 0,
         uint32_t op = 0, uint64_t base = 0) {
    dcucc_record r{};
    r.info = kind == DCUCC_MEM ? DCUCC_INFO(DCUCC_MEM, space, op, 2) | DCUCC_INFO_AFFINE : DCUCC_INFO(kind, 0, 0, 0);
    r.pc = pc;
    r.mask = 0xffffffffu;
    r.compute = compute;
    r.base = base;
    r.stride = 4;
    const auto* b = reinterpret_cast<const uint8_t*>(&r);
    buf.insert(buf.end(), b, b + (kind == DCUCC_MEM ? DCUCC_REC_MEM : DCUCC_REC_SMALL));
}

}  // namespace

TEST_CASE("dcucc order: the assembled wave, its compute counts in their slots", "[dcucc]") {
    Code c;
    SassOrder o(c.mc, c.s);
    std::vector<uint8_t> buf;
    add(buf, DCUCC_MEM, 16, 3, DCUCC_LDS, DCUCC_LOAD, 0x100);
    add(buf, DCUCC_MEM, 32, 1, DCUCC_LDS, DCUCC_LOAD, 0x104);
    add(buf, DCUCC_MEM, 48, 2, DCUCC_LDS, DCUCC_LOAD, 0x108);
    add(buf, DCUCC_WAIT, 0, 0);
    dcusim::trace::KernelInfo k;
    k.name = "k";
    k.grid = {1, 1, 1};
    k.block = {32, 1, 1};
    Collect sass, ir;
    assemble_launch(buf.data(), buf.size(), k, 32, &c.s, sass, nullptr, &o);
    assemble_launch(buf.data(), buf.size(), k, 32, &c.s, ir, nullptr, nullptr);
    const Lines want = {"wave 0 0", "compute 3", "ld lds 4 0x30 all affine 0x108 0x4", "compute 1",
                        "ld lds 4 0x10 all affine 0x100 0x4", "compute 2", "ld lds 4 0x20 all affine 0x104 0x4",
                        "wait", "end"};
    CHECK(Lines(sass.lines.end() - 9, sass.lines.end()) == want);
    CHECK(ir.lines[ir.lines.size() - 7] == "ld lds 4 0x10 all affine 0x100 0x4");  // IR order without it
}
