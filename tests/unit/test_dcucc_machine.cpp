// dcucc's compute and wait records from the uninstrumented build's SASS
// (runtime/host/machine.h): the pass's record sites matched to SASS anchors,
// and a wave's records re-timed by dcutrace's walk between them. The SASS is
// tests/unit/data/dcucc_plain.sass; every expected value is worked by hand.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "traces/capture/llvm/runtime/dcucc_abi.h"
#include "traces/capture/llvm/runtime/host/assemble.h"
#include "traces/capture/llvm/runtime/host/machine.h"
#include "traces/format/sink.h"

using namespace dcucc::host;
using Lines = std::vector<std::string>;

namespace {

const std::string kSassPath = std::string(DCUSIM_SOURCE_DIR) + "/tests/unit/data/dcucc_plain.sass";

std::string sass_text() {
    std::ifstream in(kSassPath);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The sites of _Z1kPf as the pass writes them: 32 is a constant load (folded
// into an operand in the SASS: no anchor), 112 a store on a line the SASS
// lacks, 96 belongs to another function.
SiteMap sites() {
    return {{16, {0, "k.cu:5", "_Z1kPf", "ld global"}},   {32, {0, "k.cu:5", "_Z1kPf", "ld const"}},
            {48, {0, "k.cu:6", "_Z1kPf", "st generic"}},  {64, {0, "k.cu:6", "_Z1kPf", "bar"}},
            {80, {0, "k.cu:7", "_Z1kPf", "st global"}},   {96, {0, "k.cu:7", "_Z1gv", "st global"}},
            {112, {0, "k.cu:9", "_Z1kPf", "st global"}}};
}

class Collect : public dcusim::trace::RecordSink {
public:
    void write(const dcusim::trace::Record& r) override { lines.push_back(dcusim::trace::format_record(r)); }
    void finish() override {}
    Lines lines;
};

struct Buffer {
    std::vector<uint8_t> bytes;
    Buffer& add(uint32_t kind, uint32_t pc, uint32_t compute, uint32_t space = 0, uint32_t op = 0,
                uint32_t lc = 0) {
        dcucc_record r{};
        r.info = kind == DCUCC_MEM ? DCUCC_INFO(DCUCC_MEM, space, op, 2) | DCUCC_INFO_AFFINE : DCUCC_INFO(kind, 0, 0, 0);
        r.pc = pc;
        r.mask = 0xffffffffu;
        r.compute = compute;
        r.long_count = lc;
        r.base = 0x1000;
        r.stride = 4;
        const auto* b = reinterpret_cast<const uint8_t*>(&r);
        bytes.insert(bytes.end(), b, b + (kind == DCUCC_MEM ? DCUCC_REC_MEM : DCUCC_REC_SMALL));
        return *this;
    }
};

// One wave's records, each with the IR's count since the previous record.
Buffer wave() {
    Buffer b;
    b.add(DCUCC_MEM, 16, 9, DCUCC_GLOBAL, DCUCC_LOAD, 1)
        .add(DCUCC_MEM, 32, 4, DCUCC_CONST, DCUCC_LOAD)
        .add(DCUCC_WAIT, 0, 1)
        .add(DCUCC_MEM, 48, 3, DCUCC_LDS, DCUCC_STORE)
        .add(DCUCC_BARRIER, 64, 0)
        .add(DCUCC_MEM, 80, 2, DCUCC_GLOBAL, DCUCC_STORE)
        .add(DCUCC_COMPUTE, 0, 5);
    return b;
}

Lines assembled(const Buffer& b, const SiteMap& s, const MachineCode* mc) {
    dcusim::trace::KernelInfo k;
    k.name = "k";
    k.grid = {1, 1, 1};
    k.block = {32, 1, 1};
    Collect out;
    assemble_launch(b.bytes.data(), b.bytes.size(), k, 32, &s, out, mc);
    return Lines(out.lines.begin() + 6, out.lines.end());  // after the kernel and its 5 pc lines
}

}  // namespace

TEST_CASE("dcucc machine code: SASS anchors in the pass's words", "[dcucc]") {
    const auto mod = dcutrace::parse_sass(sass_text());
    const dcutrace::SassFunction& f = mod.at("_Z1kPf");
    CHECK(sass_what(f.instrs[2]) == "ld global");
    CHECK(sass_what(f.instrs[5]) == "st lds");
    CHECK(sass_what(f.instrs[6]) == "bar");
    CHECK(sass_what(f.instrs[3]).empty());  // I2F: not an anchor
    CHECK(same_what("st generic", "st lds"));
    CHECK(same_what("ld global", "ld generic"));
    CHECK_FALSE(same_what("ld const", "ld global"));
    CHECK_FALSE(same_what("ld lds", "st lds"));
}

TEST_CASE("dcucc machine code: sites match anchors by line and operation, in order", "[dcucc]") {
    const auto mod = dcutrace::parse_sass(sass_text());
    const SiteMap s = sites();
    // 16 -> LDG (2), 48 -> STS (5, generic in the IR), 64 -> BAR (6), 80 -> STG (8);
    // 32 (constant), 112 (no line 9) and 96 (_Z1gv's) have none.
    CHECK(match_sites(s, "_Z1kPf", mod.at("_Z1kPf")) == std::map<uint32_t, int>{{16, 2}, {48, 5}, {64, 6}, {80, 8}});
}

TEST_CASE("dcucc machine code: a wave's compute and waits come from the SASS walk", "[dcucc]") {
    auto mod = std::make_shared<const std::map<std::string, dcutrace::SassFunction>>(dcutrace::parse_sass(sass_text()));
    MachineCode mc;
    mc.module = mod;
    mc.f = &mod->at("_Z1kPf");
    mc.index_of_site = match_sites(sites(), "_Z1kPf", *mc.f);
    // Entry to LDG: S2R, IMAD.WIDE. The constant load has no anchor: the walk stays at the LDG.
    // LDG to STS: I2F (long), then FADD reads R6, which the LDG writes: a wait; the IR's wait
    // record and counts (9, 4, 1, 3, 2, 5) are dropped. STS to BAR: nothing. BAR to STG: IADD3.
    // After the STG: EXIT.
    const Lines sass = {"wave 0 0",
                        "compute 2",
                        "ld global 4 0x10 all affine 0x1000 0x4",
                        "ld const 4 0x20 all affine 0x1000 0x4",
                        "compute 1 long 1",
                        "wait",
                        "compute 1",
                        "st lds 4 0x30 all affine 0x1000 0x4",
                        "bar 0x40",
                        "compute 1",
                        "st global 4 0x50 all affine 0x1000 0x4",
                        "compute 1",
                        "end"};
    CHECK(assembled(wave(), sites(), &mc) == sass);
    // Without machine code the IR's counts stand.
    const Lines ir = assembled(wave(), sites(), nullptr);
    REQUIRE(ir.size() > 2);
    CHECK(ir[1] == "compute 9 long 1");
}

TEST_CASE("dcucc machine code: the cubin from the metadata, disassembled once", "[dcucc]") {
    char dir[] = "/tmp/dcucc-machine-XXXXXX";
    REQUIRE(mkdtemp(dir));
    const std::string fake = std::string(dir) + "/nvdisasm";
    {
        // Stands in for nvdisasm: prints the SASS for a cubin that starts "CUBIN".
        std::ofstream f(fake);
        f << "#!/bin/sh\n[ \"$1 $2\" = '-c -g' ] && head -c5 \"$3\" | grep -q CUBIN && cat '" << kSassPath << "'\n";
    }
    REQUIRE(chmod(fake.c_str(), 0755) == 0);
    MetaRegistry r;
    std::ostringstream meta;
    meta << "dcucc-meta 1\nmodule k.cu\nkernel _Z1kPf params 1\nkernel _Z1hv params 0\n";
    for (const auto& [pc, s] : sites()) meta << "site " << pc << " 0 " << s.line << "\n";
    for (const auto& [pc, s] : sites()) meta << "anchor " << pc << " " << s.function << " " << s.what << "\n";
    meta << "anchor 4096 _Z1kPf ld global\n";
    meta << "cubin sm_90 435542494e00\n";  // "CUBIN\0"
    CHECK(r.add(meta.str()) == std::vector<std::string>{
                                   "metadata of k.cu, line 19: an anchor of no site, or of no operation: "
                                   "'anchor 4096 _Z1kPf ld global'"});
    auto k = r.find("_Z1kPf");
    REQUIRE(k);
    REQUIRE(k->cubin);
    CHECK(*k->cubin == std::string("CUBIN\0", 6));
    CHECK(k->sites->at(48).what == "st generic");

    setenv("DCUCC_NVDISASM", fake.c_str(), 1);
    std::string why;
    auto mc = machine_code(*k, why);
    REQUIRE(mc);
    CHECK(mc->sites == 5);  // of its 6, the constant load (32) is left out (excluded_site)
    CHECK(mc->index_of_site.size() == 4);
    CHECK(mc->index(80) == 8);
    CHECK(mc->index(32) == -1);
    // A kernel the cubin lacks: IR counts, and why.
    CHECK_FALSE(machine_code(*r.find("_Z1hv"), why));
    CHECK(why == "its uninstrumented cubin has no _Z1hv");

    // No disassembler: IR counts.
    setenv("DCUCC_NVDISASM", "/nonexistent/nvdisasm", 1);
    MetaRegistry r2;
    r2.add("dcucc-meta 1\nmodule b.cu\nkernel _Z1kPf params 1\nsite 16 0 k.cu:5\ncubin sm_90 00\n");
    CHECK_FALSE(machine_code(*r2.find("_Z1kPf"), why));
    CHECK(why.find("nvdisasm (/nonexistent/nvdisasm) failed or is missing") == 0);
    unsetenv("DCUCC_NVDISASM");
    unlink(fake.c_str());
    rmdir(dir);
}
