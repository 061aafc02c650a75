// How many workgroups of a kernel fit on one CU, and which resource limits it.
#pragma once

#include <cstdint>
#include <string>

#include "../../traces/format/record.h"
#include "../common/params.h"
#include "../common/stats.h"

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

// Its preset keys, declared in cu_params.cpp: defaults are the initialisers above.
const ParamTable<CuParams>& cu_param_table();

struct Occupancy {
    uint32_t waves_per_workgroup = 0;
    uint32_t waves_per_simd = 0;      // min of the per-SIMD limits below
    uint32_t workgroups_per_cu = 0;   // min of all limits, in workgroups
    // Each limit expressed in workgroups per CU, for the report.
    uint32_t by_waves = 0, by_vgprs = 0, by_sgprs = 0, by_lds = 0, by_workgroups = 0;
    uint64_t lds_alloc_bytes = 0;  // LDS a workgroup holds: its own, rounded up to the granule, and the reserved share
    void report(StatMap& m) const;
};

// Its figures (occupancy.*), declared in cu_counters.cpp.
const CounterTable<Occupancy>& occupancy_counter_table();

// Throws std::runtime_error naming the kernel when a workgroup can never fit.
// lds_reserved: LDS a workgroup holds besides its own (NVIDIA reserves 1 KiB a block for the system).
Occupancy compute_occupancy(const CuParams& cu, uint64_t lds_size, uint32_t lds_granule, const trace::KernelInfo& k,
                            uint64_t lds_reserved = 0);

}  // namespace dcusim
