// Typed parameter structs of every unit, filled from a checked Config.
#pragma once

#include "../models/constant/const_cache.h"
#include "../models/cu/occupancy.h"
#include "../models/dispatch/sampler.h"
#include "../models/lds/lds.h"
#include "../models/dram/dram_params.h"
#include "../models/l1/vector_l1.h"
#include "../models/l2/l2_slice.h"
#include "../models/memory/fixed_latency_memory.h"
#include "../models/noc/crossbar.h"
#include "config.h"

namespace dcusim {

struct Preset {
    uint32_t cus = 1;
    double clock_mhz = 1000;
    CuParams cu;
    LdsParams lds;
    ConstParams constant;
    bool fixed_memory = false;  // mem.model = fixed
    std::string profiler;              // report.profiler: whose counter names the output adds
    uint32_t launch_cycles = 0;        // cu.launch_cycles
    double dispatch_cycles = 0;        // cu.dispatch_cycles
    uint64_t l1_unified_bytes = 0;     // l1.unified_bytes: L1 + LDS storage, split per kernel
    std::vector<uint64_t> lds_carveouts;  // lds.carveouts, ascending
    uint64_t lds_min_carveout = 0;        // lds.min_carveout
    bool l2_flush_at_launch = false;   // l2.flush_at_launch
    uint64_t l2_dirty_at_launch_lines = 0;  // l2.dirty_at_launch_bytes, in L2 lines
    FixedMemoryParams mem;
    L1Params l1;
    NocParams noc;
    L2Params l2;  // one channel
    DramParams dram;
    SampleParams sample;
    uint64_t memory_limit_bytes = 0;  // sim.memory_limit_bytes
    double stall_seconds = 30;        // sim.stall_seconds
};

// Throws ConfigError when values are inconsistent with each other.
Preset make_preset(const Config& c);

}  // namespace dcusim
