// The preset keys that belong to no unit: the platform (CU count and clock), dispatch and launch
// timing, the profiler's habits, the host's limits; and the simulator's limit on the caches
// together. (What a launch does to the caches is models/gpu/launch.h's.)
#include <algorithm>

#include "preset.h"

namespace dcusim {

using namespace limits;

namespace {

using P = Preset;

// Each placed after the key named last (`dcusim --help` lists them among the units' keys).
std::vector<ParamKey<P>> preset_keys() {
    auto at = [](ParamKey<P> k, const char* after) {
        k.after = after;
        return k;
    };
    return {
        at(param::count<P>("cu.count", "CUs", "compute units", {1, kMaxUnits, "a limit of dcusim"}, &P::cus), ""),
        at(param::real<P>("cu.clock_mhz", "MHz", "core clock", {1, 1e6, "a period of 1 ps"}, &P::clock_mhz), "cu.count"),
        at(param::real<P>("cu.dispatch_cycles", "cycles",
                          "GPU-wide cycles between two workgroup dispatches (0: as fast as CUs accept them)", {0, kMaxLatency},
                          &P::dispatch_cycles),
           "cu.mid_issue_cycles"),
        at(param::count<P>("cu.launch_cycles", "cycles",
                           "per kernel launch: from the launch to the first workgroup, and the end of the grid", {0, kMaxLatency},
                           &P::launch_cycles),
           "cu.barrier_cycles"),
        at(param::choice_text<P>("report.profiler",
                                 "also report predicted counters under this profiler's names: ncu (Nsight Compute), rocprof, none",
                                 {"ncu", "rocprof", "none"}, &P::profiler),
           "const.divergent"),
        at(param::choice<P>("mem.model", "global memory: hierarchy = L1, NoC, L2, DRAM; fixed = every request answered after mem.latency",
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
void check_lines(const P& p, const ParamValues& v, const ParamErrors& e) {
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

}  // namespace

const ParamTable<Preset>& preset_param_table() {
    static const ParamTable<P> table{preset_keys(), {{check_lines, CheckPhase::Late}}};
    return table;
}

}  // namespace dcusim
