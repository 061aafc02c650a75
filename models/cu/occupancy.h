// How many workgroups of a kernel fit on one CU, and which resource limits it.
#pragma once

#include <cstdint>
#include <string>

#include "../../traces/format/record.h"
#include "../common/stats.h"
#include "cu_params.h"

namespace dcusim {

struct Occupancy {
    uint32_t waves_per_workgroup = 0;
    uint32_t waves_per_simd = 0;      // min of the per-SIMD limits below
    uint32_t workgroups_per_cu = 0;   // min of all limits, in workgroups
    // Each limit expressed in workgroups per CU, for the report.
    uint32_t by_waves = 0, by_vgprs = 0, by_sgprs = 0, by_lds = 0, by_workgroups = 0;
    uint64_t lds_alloc_bytes = 0;  // LDS a workgroup holds: its own, rounded up to the granule, and the reserved share
    void report(StatMap& m) const;
    // The LDS is `bytes` for this kernel (a carve-out it asked for): as many workgroups as that holds
    // (at least one: the carve-out holds one by construction).
    void limit_lds(uint64_t bytes);
};

// Its figures (occupancy.*), declared in cu_counters.cpp.
const CounterTable<Occupancy>& occupancy_counter_table();

// Throws std::runtime_error naming the kernel when a workgroup can never fit.
// lds_reserved: LDS a workgroup holds besides its own (NVIDIA reserves 1 KiB a block for the system).
Occupancy compute_occupancy(const CuParams& cu, uint64_t lds_size, uint32_t lds_granule, const trace::KernelInfo& k,
                            uint64_t lds_reserved = 0);

}  // namespace dcusim
