// The CU's counters and a kernel's occupancy figures (docs/stats.md, "Kernel and waves", "Occupancy").
#include "compute_unit.h"

namespace dcusim {

const CounterTable<CuStats>& cu_counter_table() {
    using S = CuStats;
    static const CounterTable<S> t(
        {
            counter::sum<S>("workgroups", "workgroups", "workgroups dispatched", &S::workgroups),
            counter::sum<S>("waves", "waves", "waves of the preset's wave size", &S::waves).as("rocprof", "SQ_WAVES"),
            counter::sum<S>("instructions", "wave instructions", "issued: a memory instruction, barrier or wait 1, compute N N", &S::instructions),
            counter::sum<S>("compute.instructions", "wave instructions", "from compute N records", &S::compute_instructions),
            counter::sum<S>("mem.instructions", "wave instructions", "memory instructions, all spaces", &S::mem_instructions),
            counter::sum<S>("global.instructions", "wave instructions", "global space", &S::global_instructions),
            counter::sum<S>("local.instructions", "wave instructions", "local space: spills and private arrays", &S::local_instructions),
            counter::sum<S>("barriers", "wave instructions", "bar issued", &S::barriers),
            counter::sum<S>("waits", "wave instructions", "wait issued", &S::waits),
            counter::sum<S>("simd.busy_cycles", "SIMD cycles", "sum over SIMDs of cycles spent issuing", &S::simd_busy_cycles),
            counter::sum<S>("stall.barrier_cycles", "wave cycles", "a bar's issue to its workgroup's release, summed over waves", &S::barrier_stall_cycles),
            counter::sum<S>("stall.wait_cycles", "wave cycles", "cycles a wait held the wave, summed over waves", &S::wait_stall_cycles),
            counter::sum<S>("stall.outstanding_cycles", "wave cycles", "waits for the cu.max_outstanding limit, summed over waves",
                         &S::outstanding_stall_cycles),
        },
        {{"ncu", "smsp__inst_executed.sum", "instructions - waits"}});
    return t;
}

void CuStats::report(StatMap& m) const { cu_counter_table().report(*this, m); }

const CounterTable<Occupancy>& occupancy_counter_table() {
    using S = Occupancy;
    static const CounterTable<S> t({
        counter::kernel<S>("occupancy.waves_per_workgroup", "waves", "block threads / wave size, rounded up", &S::waves_per_workgroup),
        counter::kernel<S>("occupancy.waves_per_simd", "waves", "resident waves per SIMD", &S::waves_per_simd),
        counter::kernel<S>("occupancy.workgroups_per_cu", "workgroups", "resident workgroups per CU: the least of the limits", &S::workgroups_per_cu),
        counter::kernel<S>("occupancy.limit_waves", "workgroups", "from wave slots", &S::by_waves),
        counter::kernel<S>("occupancy.limit_vgprs", "workgroups", "from the VGPR file", &S::by_vgprs),
        counter::kernel<S>("occupancy.limit_sgprs", "workgroups", "from the SGPR file", &S::by_sgprs),
        counter::kernel<S>("occupancy.limit_lds", "workgroups", "from the LDS", &S::by_lds),
        counter::kernel<S>("occupancy.limit_workgroups", "workgroups", "cu.max_workgroups", &S::by_workgroups),
    });
    return t;
}

void Occupancy::report(StatMap& m) const { occupancy_counter_table().report(*this, m); }

}  // namespace dcusim
