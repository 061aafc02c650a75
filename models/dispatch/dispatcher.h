// Workgroup dispatcher: runs the kernels of its workgroup source in order, pulling
// one workgroup at a time and handing it to the next CU (round robin) that has
// room under the kernel's occupancy limits. A kernel's cycles
// run from its first dispatch to its last wave's retirement; the next kernel
// starts then.
#pragma once

#include <systemc>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../../traces/replay/workgroup_source.h"
#include "../common/progress.h"
#include "../cu/compute_unit.h"
#include "../gpu/launch_params.h"
#include "sampler.h"

namespace dcusim {

// A kernel's figure of the dispatcher's: its cycles, first dispatch to last retirement (with
// sampling, projected). Declared in dispatch_counters.cpp.
struct KernelFigures {
    uint64_t cycles = 0;
};
const CounterTable<KernelFigures>& kernel_counter_table();

class KernelObserver : public SampleObserver {
public:
    virtual ~KernelObserver() = default;
    virtual void kernel_started(const trace::KernelInfo& k, const Occupancy& occ,
                                const std::map<uint64_t, std::string>& pc_lines) = 0;
    // cycles: with sampling, the projected figure (kernel_sampled tells how it was made, just before).
    virtual void kernel_finished(const trace::KernelInfo& k, Cycle cycles) = 0;
    virtual void kernel_sampled(const SampleReport&, Cycle /*simulated*/) {}
    // Every 1024th workgroup of a run: what a progress report needs (the program prints it).
    virtual void workgroups_dispatched(const trace::KernelInfo&, uint64_t /*launched*/, Cycle /*now*/) {}
};

struct DispatcherParams {
    CuParams cu;
    uint64_t lds_size = 65536;
    uint32_t lds_granule = 512;
    uint64_t lds_reserved = 0;  // per workgroup, besides its own LDS (lds.reserved_bytes)
    LaunchParams launch;         // the carve-outs of a unified L1/LDS storage: a kernel's preference limits its LDS
    uint32_t launch_cycles = 0;  // added to every kernel's cycles (launch and grid-end overhead)
    double dispatch_cycles = 0;  // GPU-wide cycles between two workgroup dispatches (0: no limit)
    SampleParams sample;
    uint32_t sample_line_bytes = 128;  // the lines a signature counts (the L1's)
};

class Dispatcher : public sc_core::sc_module, public WorkgroupListener {
public:
    Dispatcher(sc_core::sc_module_name name, const DispatcherParams& p, const Clock& clk,
               std::unique_ptr<trace::WorkgroupSource> work, KernelObserver* obs);
    void attach(std::vector<ComputeUnit*> cus) { cus_ = std::move(cus); }
    void workgroup_retired(uint32_t cu, uint64_t tag, Cycle when) override;
    // An error raised inside the simulation (bad trace, kernel that cannot fit):
    // the simulation stops and the platform rethrows it after sc_start.
    std::exception_ptr error() const { return error_; }
    bool finished() const { return finished_; }
    // The workgroups sampling skipped, read by the watchdog's thread: a long stretch of them issues
    // no instruction, yet the run progresses.
    const Progress& progress() const { return progress_; }

private:
    void run();
    void dispatch(Cycle now);
    bool pull();  // the next workgroup to launch into pending_; false once the kernel has none left

    DispatcherParams p_;
    const Clock& clk_;
    std::unique_ptr<trace::WorkgroupSource> work_;
    KernelObserver* obs_;
    std::vector<ComputeUnit*> cus_;
    bool in_kernel_ = false;
    bool finished_ = false;
    Sampler sampler_;
    std::unique_ptr<trace::WorkgroupTrace> pending_;
    bool trace_drained_ = false;  // current kernel has no more workgroups
    Cycle kernel_start_ = 0;
    uint32_t rr_ = 0;
    double next_dispatch_ = 0;  // with a dispatch rate: the earliest cycle of the next workgroup
    uint64_t launched_ = 0;
    uint64_t skipped_ = 0;
    Progress progress_;
    sc_core::sc_event wake_;
    std::exception_ptr error_;
};

}  // namespace dcusim
