// The dispatcher's figures of a kernel (docs/stats.md, "Kernel and waves", "Sampling"): figures,
// not sums of the units' counters, so sampling does not project them (it makes them).
#include "dispatcher.h"

namespace dcusim {

const CounterTable<KernelFigures>& kernel_counter_table() {
    using S = KernelFigures;
    static const CounterTable<S> t({
        counter::figure<S>("cycles", "core cycles", "first workgroup dispatch to last wave retired", &S::cycles)
            .as("ncu", "gpc__cycles_elapsed.max")
            .as("rocprof", "GRBM_GUI_ACTIVE"),
    });
    return t;
}

const CounterTable<SampleFigures>& sample_counter_table() {
    using S = SampleFigures;
    static const CounterTable<S> t({
        counter::figure<S>("sample.projected", "kernels", "1 when the kernel's figures are projected", &S::projected),
        counter::figure<S>("sample.workgroups_total", "workgroups", "workgroups read from the trace", &S::workgroups_total),
        counter::figure<S>("sample.workgroups_simulated", "workgroups", "of them, timed in detail", &S::workgroups_simulated),
        counter::figure<S>("sample.cycles_simulated", "core cycles", "the kernel's cycles as simulated", &S::cycles_simulated),
    });
    return t;
}

}  // namespace dcusim
