// The LDS's counters (docs/stats.md, "LDS").
#include "lds.h"

namespace dcusim {

const CounterTable<LdsStats>& lds_counter_table() {
    using S = LdsStats;
    static const CounterTable<S> t({
        counter::sum<S>("lds.instructions", "wave instructions", "LDS instructions", &S::instructions).as("rocprof", "SQ_INSTS_LDS"),
        counter::sum<S>("lds.loads", "wave instructions", "LDS loads", &S::loads),
        counter::sum<S>("lds.stores", "wave instructions", "LDS stores", &S::stores),
        counter::sum<S>("lds.atomics", "wave instructions", "LDS atomics", &S::atomics),
        counter::sum<S>("lds.cycles", "LDS cycles", "sum of the instructions' bank-conflict costs", &S::cycles),
        counter::sum<S>("lds.bank_conflict_cycles", "LDS cycles", "sum over active lane groups of cost - 1", &S::bank_conflict_cycles)
            .as("rocprof", "SQ_LDS_BANK_CONFLICT"),
        counter::sum<S>("lds.load_cycles", "LDS cycles", "lds.cycles of loads", &S::load_cycles)
            .as("ncu", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
        counter::sum<S>("lds.load_conflict_cycles", "LDS cycles", "lds.bank_conflict_cycles of loads", &S::load_conflict_cycles)
            .as("ncu", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
        counter::sum<S>("lds.store_cycles", "LDS cycles", "lds.cycles of stores", &S::store_cycles)
            .as("ncu", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
        counter::sum<S>("lds.store_conflict_cycles", "LDS cycles", "lds.bank_conflict_cycles of stores", &S::store_conflict_cycles)
            .as("ncu", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
        counter::sum<S>("lds.groups", "lane groups", "active lane groups served", &S::groups),
        counter::sum<S>("lds.bytes", "bytes", "active lanes x bytes per lane", &S::bytes),
        counter::sum<S>("lds.launch_cycles", "LDS cycles",
                        "cycles shared loads lost to workgroup launches (lds.launch_conflict_cycles), counted in the conflicts "
                        "(none where no load follows before the kernel ends)",
                        &S::launch_cycles),
        counter::sum<S>("lds.empty_instructions", "wave instructions",
                        "LDS instructions issued with no lane on (predicated off): not in lds.instructions", &S::empty_instructions),
        counter::sum<S>("lds.empty_cycles", "LDS cycles", "pipe cycles they held (lds.empty_cycles each): not in lds.cycles",
                        &S::empty_cycles),
        counter::sum<S>("lds.queue_cycles", "cycles", "waits for the CU's LDS pipe behind other instructions", &S::queue_cycles),
    });
    return t;
}

void LdsStats::report(StatMap& m) const { lds_counter_table().report(*this, m); }

}  // namespace dcusim
