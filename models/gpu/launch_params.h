// The launch's parameters and their preset keys: the unified L1/LDS storage and its carve-outs,
// the L1s and the L2 at a launch, each field declared beside its key (models/common/params.h): a
// new key is one edit here. Each key is listed by `dcusim --help` after the key it names, beside
// the unit it acts on; the L1 and the L2 check them against their own keys (models/l1, models/l2).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "../common/params.h"

namespace dcusim {

struct LaunchParams {
    uint64_t unified_bytes = 0;          // l1.unified_bytes: L1 + LDS storage, split per kernel (0: separate)
    std::vector<uint64_t> carveouts{0};  // lds.carveouts, ascending
    uint64_t min_carveout = 0;           // lds.min_carveout
    uint32_t carveout_headroom = 1;      // lds.carveout_headroom
    uint64_t carveout_headroom_max = 0;  // lds.carveout_headroom_max
    bool invalidate_l1 = true;           // l1.invalidate_at_launch
    bool flush_l2 = false;               // l2.flush_at_launch
    uint64_t dirty_lines = 0;            // l2.dirty_at_launch_bytes, in L2 lines
};

inline std::vector<ParamKey<LaunchParams>> launch_param_keys() {
    using P = LaunchParams;
    using namespace limits;
    const P d{};
    std::string carveouts;
    for (uint64_t c : d.carveouts) carveouts += (carveouts.empty() ? "" : ",") + param_size_text(c);
    return {
        param::placed(param::derived<P>({"lds.carveouts", ParamType::SizeList, carveouts, "bytes",
                                         "with l1.unified_bytes: the LDS sizes the storage splits into; a kernel gets the "
                                         "smallest that holds its resident workgroups and is at least lds.min_carveout",
                                         {}, 0, kMaxLocalBytes},
                                        [](P& p, const ParamValues& v) {
                                            p.carveouts = v.sizes("lds.carveouts");
                                            std::sort(p.carveouts.begin(), p.carveouts.end());
                                        }),
                      "lds.reserved_bytes"),
        param::placed(param::size<P>("lds.min_carveout", "bytes",
                                     "with l1.unified_bytes: the smallest carve-out a kernel gets, whatever its LDS",
                                     {0, kMaxLocalBytes}, &P::min_carveout),
                      "lds.carveouts"),
        param::placed(param::count<P>("lds.carveout_headroom", "times",
                                      "with l1.unified_bytes, a kernel without a preference: its carve-out also holds this many "
                                      "times the workgroups its other limits (waves, registers, cu.max_workgroups) allow, up to "
                                      "lds.carveout_headroom_max",
                                      {1, 64}, &P::carveout_headroom),
                      "lds.min_carveout"),
        param::placed(param::size<P>("lds.carveout_headroom_max", "bytes",
                                     "the largest carve-out lds.carveout_headroom may lead to (0: the headroom gives none)",
                                     {0, kMaxLocalBytes}, &P::carveout_headroom_max),
                      "lds.carveout_headroom"),
        param::placed(param::size<P>("l1.unified_bytes", "bytes",
                                     "L1 and LDS share this storage: each kernel's L1 is what its LDS carve-out leaves "
                                     "(0: a separate L1 of l1.size_bytes)",
                                     {0, kMaxLocalBytes}, &P::unified_bytes),
                      "l1.size_bytes"),
        // on: GCN's dispatch packet's acquire fence invalidates the vector L1 (HSA AQL: the DCU's);
        // assumed for the H200 (CUDA's L1 is not coherent across kernels).
        param::placed(param::choice<P>("l1.invalidate_at_launch",
                                       "empty every L1 before each kernel (on: the launch's acquire invalidates it; off: lines of "
                                       "the previous kernel may hit)",
                                       {{"on", true}, {"off", false}}, &P::invalidate_l1),
                      "l1.unified_bytes"),
        param::placed(param::choice<P>("l2.flush_at_launch",
                                       "empty the L2 before every kernel (on: as a profiler does between the kernels it measures)",
                                       {{"on", true}, {"off", false}}, &P::flush_l2),
                      "l2.dirty_limit_bytes"),
        param::placed(param::derived<P>({"l2.dirty_at_launch_bytes", ParamType::Size, param_size_text(0) /* none */, "bytes",
                                         "dirty data of no kernel in the L2 at every kernel's start, oldest of all, written "
                                         "back when evicted (a profiler's own writes between its passes)",
                                         {}, 0, kMaxBigBytes},
                                        [](P& p, const ParamValues& v) {
                                            p.dirty_lines = v.u("l2.dirty_at_launch_bytes") / v.u("l2.line_bytes");
                                        }),
                      "l2.flush_at_launch"),
    };
}

// Its keys; defaults are the initialisers above.
inline const ParamTable<LaunchParams>& launch_param_table() {
    static const ParamTable<LaunchParams> table{launch_param_keys(), {}};
    return table;
}

}  // namespace dcusim
