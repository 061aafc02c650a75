// The dispatcher alone: kernels handed over from memory (a WorkgroupSource, no trace file),
// two real CUs each holding one workgroup at a time (cu.max_workgroups = 1) with mock LDS,
// constant cache and memory, and an observer of kernel starts and ends. Every workgroup is one
// wave of `compute 3`: 12 cycles from its launch to its retirement.
#include <catch2/catch.hpp>
#include <systemc>

#include <memory>
#include <utility>
#include <vector>

#include "helpers.h"
#include "mocks.h"
#include "models/dispatch/dispatcher.h"

using namespace dcusim;
using dcusim::test::wave_of;

namespace {

// Kernels of `n` one-wave workgroups each, from memory.
struct Kernels : trace::WorkgroupSource {
    std::vector<trace::KernelInfo> kernels;
    std::vector<uint32_t> workgroups;
    size_t k = 0, wg = 0;
    bool started = false;
    std::map<uint64_t, std::string> no_lines;
    void add(const std::string& name, uint32_t n) {
        trace::KernelInfo info;
        info.name = name;
        info.grid = {n, 1, 1};
        info.block = {64, 1, 1};
        kernels.push_back(info);
        workgroups.push_back(n);
    }
    bool next_kernel() override {
        if (started) ++k;
        started = true;
        wg = 0;
        return k < kernels.size();
    }
    const trace::KernelInfo& kernel() const override { return kernels[k]; }
    const std::map<uint64_t, std::string>& pc_lines() const override { return no_lines; }
    bool next_workgroup(trace::WorkgroupTrace& out) override {
        if (wg == workgroups[k]) return false;
        out.block = wg++;
        out.waves = {wave_of({"compute 3"})};
        return true;
    }
};

struct Observer : KernelObserver {
    const Clock& clk;
    std::vector<Cycle> started, cycles;
    explicit Observer(const Clock& c) : clk(c) {}
    void kernel_started(const trace::KernelInfo&, const Occupancy&, const std::map<uint64_t, std::string>&) override {
        started.push_back(clk.now());
    }
    void kernel_finished(const trace::KernelInfo&, Cycle c) override { cycles.push_back(c); }
};

struct Bench {
    Observer obs;
    Dispatcher* d;
    std::vector<ComputeUnit*> cus;
    Bench(const Clock& clk, std::unique_ptr<Kernels> work, double dispatch_cycles) : obs(clk) {
        DispatcherParams p;
        p.cu.max_workgroups = 1;
        p.dispatch_cycles = dispatch_cycles;
        d = new Dispatcher("dispatcher", p, clk, std::move(work), &obs);
        auto* mem = new dcusim::test::FixedMemory("mem", clk, 100);
        for (uint32_t i = 0; i < 2; ++i) {
            auto* cu = new ComputeUnit(("cu" + std::to_string(i)).c_str(), i, p.cu, clk, d);
            cu->lds(*new dcusim::test::MockLds(("lds" + std::to_string(i)).c_str()));
            cu->constant(*new dcusim::test::MockConst(("const" + std::to_string(i)).c_str()));
            cu->mem(*mem);
            cus.push_back(cu);
        }
        d->attach(cus);
    }
};

}  // namespace

TEST_CASE("dispatcher: round robin over CUs with room, kernels one after another", "[dispatch]") {
    static Clock clk(1000);
    auto work = std::make_unique<Kernels>();
    work->add("a", 3);
    work->add("b", 1);
    Bench b(clk, std::move(work), 0);
    sc_core::sc_start();
    REQUIRE(b.d->error() == nullptr);
    CHECK(b.d->finished());
    // a: workgroups 0 and 1 on CUs 0 and 1 at cycle 0, both retire at 12; workgroup 2 then goes
    // to CU 0 (the round robin's next), retiring at 24, when a ends. b starts in that cycle, its
    // workgroup on CU 0 again (each kernel starts its round robin at CU 0), done at 36.
    CHECK(b.obs.started == std::vector<Cycle>{0, 24});
    CHECK(b.obs.cycles == std::vector<Cycle>{24, 12});
    CHECK(b.cus[0]->stats().workgroups == 3);
    CHECK(b.cus[1]->stats().workgroups == 1);
}

TEST_CASE("dispatcher: dispatch_cycles spaces out the workgroups GPU-wide", "[dispatch]") {
    static Clock clk(1000);
    auto work = std::make_unique<Kernels>();
    work->add("a", 4);
    Bench b(clk, std::move(work), 5);
    sc_core::sc_start();
    // Launches at 0 (CU 0) and 5 (CU 1); at 12 CU 0 has room again and the dispatcher is free
    // (since 10): workgroup 2; workgroup 3 waits for the dispatcher until 17, when CU 1 (free
    // since 17) takes it, done at 29. Without the limit: 12, 12, 24, 24.
    CHECK(b.obs.cycles == std::vector<Cycle>{29});
    CHECK(b.cus[0]->stats().workgroups == 2);
    CHECK(b.cus[1]->stats().workgroups == 2);
}
