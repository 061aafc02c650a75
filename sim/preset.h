// Typed parameter structs of every unit, filled from a checked Config by the units' declared
// keys (models/*/..._params.cpp) and the platform's (sim/preset_params.cpp).
#pragma once

#include "../models/constant/const_cache.h"
#include "../models/cu/occupancy.h"
#include "../models/dispatch/sampler.h"
#include "../models/lds/lds.h"
#include "../models/dram/dram_params.h"
#include "../models/gpu/launch.h"
#include "../models/host/host_link.h"
#include "../models/l1/vector_l1.h"
#include "../models/l2/l2_slice.h"
#include "../models/memory/fixed_latency_memory.h"
#include "../models/noc/crossbar.h"
#include "config.h"

namespace dcusim {

struct Preset {
    uint32_t cus = 64;        // cu.count
    double clock_mhz = 1500;  // cu.clock_mhz
    CuParams cu;
    LdsParams lds;
    ConstParams constant;
    bool fixed_memory = false;  // mem.model = fixed
    std::string profiler = "rocprof";  // report.profiler: whose counter names the output adds
    uint32_t launch_cycles = 0;        // cu.launch_cycles
    double dispatch_cycles = 0;        // cu.dispatch_cycles
    LaunchParams launch;
    FixedMemoryParams mem;
    L1Params l1;
    NocParams noc;
    L2Params l2;  // one channel
    DramParams dram;
    SampleParams sample;
    HostLinkParams host;  // link.*, copy.*
    uint64_t memory_limit_bytes = uint64_t(8) << 30;  // sim.memory_limit_bytes
    double stall_seconds = 30;        // sim.stall_seconds
};

// The keys of no unit (platform, launches, host) and the checks across units: preset_params.cpp.
const ParamTable<Preset>& preset_param_table();

// Each unit's table and the member of Preset it fills, in the order `dcusim --help` lists their
// keys (the platform's table last, its keys placed among them) and make_preset checks them.
template <class F>
void for_each_unit(Preset& p, F&& f) {
    f(cu_param_table(), p.cu);
    f(lds_param_table(), p.lds);
    f(const_param_table(), p.constant);
    f(fixed_memory_param_table(), p.mem);
    f(l1_param_table(), p.l1);
    f(noc_channel_param_table(), p.noc);
    f(l2_param_table(), p.l2);
    f(noc_param_table(), p.noc);
    f(dram_param_table(), p.dram);
    f(sample_param_table(), p.sample);
    f(launch_param_table(), p.launch);
    f(host_link_param_table(), p.host);
}

// Throws ConfigError when values are inconsistent with each other.
Preset make_preset(const Config& c);

}  // namespace dcusim
