// The CU's preset keys (cu.*), in the order `dcusim --help` lists them.
#include "occupancy.h"

namespace dcusim {

using namespace limits;

const ParamTable<CuParams>& cu_param_table() {
    using P = CuParams;
    static const ParamTable<P> table{
        {
            param::count<P>("cu.wave_size", "lanes", "lanes per wave (32 or 64); traces are regrouped to it", {0, 64},
                            &P::wave_size, {"32", "64"}),
            param::count<P>("cu.simds", "SIMDs", "SIMDs per CU, each issuing for its own waves", {1, 64, "GPUs have 1 to 4"}, &P::simds),
            param::count<P>("cu.waves_per_simd", "waves", "wave slots per SIMD", {1, 256}, &P::waves_per_simd),
            param::count<P>("cu.max_workgroups", "workgroups", "resident workgroups per CU", {1, 1024}, &P::max_workgroups),
            param::count<P>("cu.vgprs_per_simd", "registers/lane", "vector register file of one SIMD, registers per lane",
                            {1, kMaxRegisters}, &P::vgprs_per_simd),
            param::count<P>("cu.vgpr_granule", "registers", "vector register allocation unit per wave", {1, kMaxRegisters},
                            &P::vgpr_granule),
            param::count<P>("cu.max_vgprs", "registers", "most vector registers one wave may use", {1, kMaxRegisters}, &P::max_vgprs),
            param::count<P>("cu.sgprs_per_simd", "registers", "scalar register file per SIMD (0: none)", {0, kMaxRegisters},
                            &P::sgprs_per_simd),
            param::count<P>("cu.sgpr_granule", "registers", "scalar register allocation unit per wave", {1, kMaxRegisters},
                            &P::sgpr_granule),
            param::count<P>("cu.max_sgprs", "registers", "most scalar registers one wave may use", {1, kMaxRegisters}, &P::max_sgprs),
            param::count<P>("cu.issue_cycles", "cycles", "SIMD cycles to issue one instruction of one wave", {1, kMaxLatency},
                            &P::issue_cycles),
            param::count<P>("cu.wave_issue_cycles", "cycles",
                            "fewest cycles between two instructions of one wave (dependent-issue latency; 0: cu.issue_cycles)",
                            {0, kMaxLatency}, &P::wave_issue_cycles),
            param::count<P>("cu.long_issue_cycles", "cycles",
                            "the same after a long-latency instruction: conversions, transcendentals (`compute N long L` in traces; "
                            "0: as cu.wave_issue_cycles)",
                            {0, kMaxLatency}, &P::long_issue_cycles),
            param::count<P>("cu.mid_issue_cycles", "cycles",
                            "the same after a middle-latency instruction: wide integer multiplies (`compute N ... mid M` in traces; "
                            "0: as cu.wave_issue_cycles)",
                            {0, kMaxLatency}, &P::mid_issue_cycles),
            param::count<P>("cu.workgroup_start_cycles", "cycles",
                            "from a CU taking a workgroup to its waves' first issue (the slots are held meanwhile)", {0, kMaxLatency},
                            &P::workgroup_start_cycles),
            param::real<P>("cu.barrier_arrive_cycles", "cycles",
                           "the CU takes its waves' arrivals at barriers one at a time, one every this many cycles (0: all at once)",
                           {kTick, 1e6, "kept in 1/1024 cycles", true}, &P::barrier_arrive_cycles),
            param::count<P>("cu.barrier_cycles", "cycles", "from the CU taking a barrier's last arrival to releasing its workgroup",
                            {0, kMaxLatency}, &P::barrier_cycles),
            param::count<P>("cu.max_outstanding", "instructions", "memory instructions in flight per wave", {1, 4096},
                            &P::max_outstanding),
            param::choice<P>("cu.wait_stores",
                             "on: a wait, and the in-flight limit, count stores until they are acknowledged; off: loads only (a wave "
                             "ends once its stores are done either way)",
                             {{"on", true}, {"off", false}}, &P::wait_stores),
        },
        {
            [](const P& p, const ParamValues&, const ParamErrors& e) {
                if (p.max_vgprs > p.vgprs_per_simd) e.fail("cu.max_vgprs", "exceeds cu.vgprs_per_simd");
            },
        },
    };
    return table;
}

}  // namespace dcusim
