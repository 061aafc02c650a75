// The CU's parameters and their preset keys (cu.*; the CU count and clock are the platform's:
// sim/preset.h), each field declared beside its key (models/common/params.h): a new key is one
// edit here.
#pragma once

#include "../common/params.h"

namespace dcusim {

struct CuParams {
    uint32_t wave_size = 64;
    uint32_t simds = 4;
    uint32_t waves_per_simd = 10;
    uint32_t max_workgroups = 16;
    uint32_t vgprs_per_simd = 256;   // registers per lane in one SIMD's file
    uint32_t vgpr_granule = 4;       // per-wave allocation unit, registers per lane
    uint32_t max_vgprs = 256;        // per wave
    uint32_t sgprs_per_simd = 800;   // 0: no scalar register file
    uint32_t sgpr_granule = 16;
    uint32_t max_sgprs = 102;
    uint32_t issue_cycles = 4;       // SIMD cycles to issue one instruction of one wave
    uint32_t wave_issue_cycles = 0;  // fewest cycles between two instructions of one wave (below issue_cycles: issue_cycles)
    uint32_t long_issue_cycles = 0;  // the same after a long-latency instruction (0: wave_issue_cycles)
    uint32_t mid_issue_cycles = 0;   // the same after a middle-latency one (0: wave_issue_cycles)
    uint32_t max_outstanding = 63;   // memory instructions in flight per wave
    uint32_t workgroup_start_cycles = 0;  // from taking a workgroup to its waves' first issue
    // The CU's barrier unit takes the waves' arrivals at barriers one at a time, one every
    // `barrier_arrive_cycles` (all its workgroups share it; 0: all at once), and a barrier releases its
    // workgroup `barrier_cycles` after the unit took the last of its waves (0, 0: at the last arrival).
    double barrier_arrive_cycles = 0;
    uint32_t barrier_cycles = 0;
    bool wait_stores = true;         // waits and the in-flight limit count stores (GCN's vmcnt) or loads only (NVIDIA)
};

// Its keys, in the order `dcusim --help` lists them; defaults are the initialisers above.
inline const ParamTable<CuParams>& cu_param_table() {
    using P = CuParams;
    using namespace limits;
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
