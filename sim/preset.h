// A preset as the simulator reads it: each unit's params, their keys declared beside them
// (models/*/*_params.h), and the keys of no unit, declared here beside their fields: the platform
// (CU count and clock), dispatch and launch timing, the memory model, the profiler's names, the
// host's limits, and the simulator's limit on the caches together. A new key of no unit is one
// edit here. sim/preset_registry.h gathers every table and makes a Preset from a Config.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "../models/constant/const_cache.h"
#include "../models/cu/occupancy.h"
#include "../models/dispatch/sampler.h"
#include "../models/dram/dram_params.h"
#include "../models/gpu/launch.h"
#include "../models/host/host_link.h"
#include "../models/l1/vector_l1.h"
#include "../models/l2/l2_slice.h"
#include "../models/lds/lds.h"
#include "../models/memory/fixed_latency_memory.h"
#include "../models/noc/crossbar.h"
#include "config.h"
#include "preset_registry.h"

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

// The keys of no unit, each placed after the key it names (`dcusim --help` lists them among the
// units' keys); those placed nowhere come last.
inline std::vector<ParamKey<Preset>> preset_param_keys() {
    using P = Preset;
    using namespace limits;
    using param::placed;
    return {
        placed(param::count<P>("cu.count", "CUs", "compute units", {1, kMaxUnits, "a limit of dcusim"}, &P::cus), ""),
        placed(param::real<P>("cu.clock_mhz", "MHz", "core clock", {1, 1e6, "a period of 1 ps"}, &P::clock_mhz), "cu.count"),
        placed(param::real<P>("cu.dispatch_cycles", "cycles",
                              "GPU-wide cycles between two workgroup dispatches (0: as fast as CUs accept them)", {0, kMaxLatency},
                              &P::dispatch_cycles),
               "cu.mid_issue_cycles"),
        placed(param::count<P>("cu.launch_cycles", "cycles",
                               "per kernel launch: from the launch to the first workgroup, and the end of the grid", {0, kMaxLatency},
                               &P::launch_cycles),
               "cu.barrier_cycles"),
        placed(param::choice_text<P>("report.profiler",
                                     "also report predicted counters under this profiler's names: ncu (Nsight Compute), rocprof, none",
                                     {"ncu", "rocprof", "none"}, &P::profiler),
               "const.divergent"),
        placed(param::choice<P>("mem.model", "global memory: hierarchy = L1, NoC, L2, DRAM; fixed = every request answered after mem.latency",
                                {{"hierarchy", false}, {"fixed", true}}, &P::fixed_memory),
               "report.profiler"),
        // The host, not the GPU: the watchdog (sim/watchdog.h) ends a run past these with an error.
        param::size<P>("sim.memory_limit_bytes", "bytes",
                       "a run whose resident memory grows past this stops with an error naming the kernel and cycle",
                       {64 << 20, 1024.0 * (1 << 30)}, &P::memory_limit_bytes),
        param::real<P>("sim.stall_seconds", "seconds",
                       "a run that issues no instruction for this long (wall clock) stops with an error naming the kernel and cycle",
                       {0.1, 86400, "a day"}, &P::stall_seconds),
    };
}

// Limits of the simulator, not of any hardware: every unit and every cache line has state
// allocated up front, so past these a run would exhaust the host instead of failing here.
inline void check_preset_lines(const Preset& p, const ParamValues& v, const ParamErrors& e) {
    constexpr uint64_t kMaxLines = 1ull << 25;  // cache lines of all caches together
    const ConstParams& k = p.constant;
    const uint64_t const_caches = (uint64_t(p.cus) + k.cus_per_cache - 1) / k.cus_per_cache;
    const std::pair<const char*, uint64_t> lines[] = {
        {"l1.size_bytes", uint64_t(p.cus) * (std::max(p.l1.geometry.size_bytes, p.launch.unified_bytes) / p.l1.geometry.line_bytes)},
        {"l2.size_bytes", v.u("l2.size_bytes") / p.l2.geometry.line_bytes},
        {"const.size_bytes", const_caches * (k.geometry.size_bytes / k.geometry.line_bytes)},
    };
    uint64_t all_lines = 0;
    for (const auto& l : lines) all_lines += l.second;
    if (all_lines <= kMaxLines) return;
    const auto& most = *std::max_element(std::begin(lines), std::end(lines),
                                         [](const auto& a, const auto& b) { return a.second < b.second; });
    e.fail(most.first, "the caches would hold " + std::to_string(all_lines) + " lines in all, at most " + std::to_string(kMaxLines) +
                           " (a limit of dcusim: each line's tag is kept)");
}

// The keys of no unit and the checks across units.
inline const ParamTable<Preset>& preset_param_table() {
    static const ParamTable<Preset> table{preset_param_keys(), {{check_preset_lines, CheckPhase::Late}}};
    return table;
}

// What one unit's parameters take from another's keys, once every table has filled its own.
inline void connect_units(Preset& p) {
    p.l1.wave_size = p.cu.wave_size;
    p.noc.cus = p.cus;
    p.l2.channels = p.noc.channel_map().run_channels();
    p.l2.interleave_bytes = p.noc.interleave_bytes;
    p.l2.swaps = p.noc.swaps;
    p.l2.sides.channels = p.noc.channels;
    p.noc.sides = p.l2.sides;
    p.l1.write_grain = std::min(p.l1.sector_bytes, p.l2.sector_bytes);  // a store's bytes, as finely as either level keeps them
}

// Each table and the params it fills (a unit's member of Preset, or the Preset itself for the keys
// of no unit), in the order `dcusim --help` lists their keys (but those placed after another key)
// and their checks run. A new unit adds its member to Preset and its table here; a new key
// changes neither.
template <class F>
void for_each_table(Preset& p, F&& f) {
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
    f(preset_param_table(), p);
}

}  // namespace dcusim
