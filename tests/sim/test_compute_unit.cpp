// The CU alone, with mock neighbours: an LDS that answers 10 cycles after issue, a constant
// cache that hands every load back to the vector path, a memory that answers 100 cycles after a
// request leaves (tests/mocks.h), and a dispatcher that records when each workgroup retires.
// Default CU: a SIMD is busy 4 cycles per instruction, and a wave's next instruction issues
// 4 cycles after its last (compute N: N x 4).
#include <catch2/catch.hpp>
#include <systemc>

#include <memory>
#include <vector>

#include "helpers.h"
#include "mocks.h"
#include "models/cu/compute_unit.h"

using namespace dcusim;
using dcusim::test::FixedMemory;
using dcusim::test::MockConst;
using dcusim::test::MockLds;
using dcusim::test::wave_of;

namespace {

// Launches one workgroup at cycle 0 and records when it retires.
struct Dispatcher : sc_core::sc_module, WorkgroupListener {
    ComputeUnit* cu = nullptr;
    std::unique_ptr<trace::WorkgroupTrace> wg;
    std::vector<Cycle> retired;
    explicit Dispatcher(sc_core::sc_module_name n) : sc_module(n) {
        SC_HAS_PROCESS(Dispatcher);
        SC_THREAD(start);
    }
    void start() { cu->launch(std::move(wg), 0); }
    void workgroup_retired(uint32_t, uint64_t, Cycle when) override { retired.push_back(when); }
};

struct Bench {
    ComputeUnit* cu;
    Dispatcher* d;
    Bench(const Clock& clk, const CuParams& p, std::vector<trace::WaveTrace> waves) {
        d = new Dispatcher("dispatcher");
        cu = new ComputeUnit("cu", 0, p, clk, d);
        auto* lds = new MockLds("lds");
        auto* k = new MockConst("const");
        auto* mem = new FixedMemory("mem", clk, 100);
        cu->lds(*lds);
        cu->constant(*k);
        cu->mem(*mem);
        d->cu = cu;
        d->wg = std::make_unique<trace::WorkgroupTrace>();
        d->wg->waves = std::move(waves);
    }
};

}  // namespace

TEST_CASE("CU: compute, a global load, and a wait for it", "[cu]") {
    static Clock clk(1000);
    Bench b(clk, CuParams{}, {wave_of({"compute 3", "ld global 4 0 all affine 0x1000 4", "wait"})});
    sc_core::sc_start();
    // compute 3 in cycles 0-11; the load issues at 12 (answered at 112); the wait issues at 16 and
    // holds the wave until 112, when it retires.
    REQUIRE(b.d->retired == std::vector<Cycle>{112});
    const CuStats& s = b.cu->stats();
    CHECK(s.instructions == 3 + 1 + 1);
    CHECK(s.mem_instructions == 1);
    CHECK(s.global_instructions == 1);
    CHECK(s.waits == 1);
    CHECK(s.simd_busy_cycles == 12 + 4);
    CHECK(s.wait_stall_cycles == 112 - 16);
}

TEST_CASE("CU: two waves on one SIMD take turns, first come first served", "[cu]") {
    static Clock clk(1000);
    CuParams p;
    p.simds = 1;
    Bench b(clk, p, {wave_of({"compute 3"}), wave_of({"compute 3"})});
    sc_core::sc_start();
    // Wave 0 computes in 0-11; wave 1, queued since 0, in 12-23; both are done at 24.
    REQUIRE(b.d->retired == std::vector<Cycle>{24});
    CHECK(b.cu->stats().simd_busy_cycles == 24);
    CHECK(b.cu->stats().waves == 2);
}

TEST_CASE("CU: an LDS load's answer is known at issue: the wait ends then", "[cu]") {
    static Clock clk(1000);
    Bench b(clk, CuParams{}, {wave_of({"ld lds 4 0 all affine 0 4", "wait", "compute 1"})});
    sc_core::sc_start();
    // The LDS load at 0 is back at 10; the wait issues at 4 and ends at 10; compute 1 in 10-13.
    REQUIRE(b.d->retired == std::vector<Cycle>{14});
    CHECK(b.cu->stats().wait_stall_cycles == 10 - 4);
}
