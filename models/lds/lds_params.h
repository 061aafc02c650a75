// The LDS's parameters and their preset keys (lds.*; the carve-outs of a unified L1 are the launch's:
// models/gpu/launch_params.h), each field declared beside its key (models/common/params.h): a new
// key is one edit here.
#pragma once

#include "../common/params.h"
#include "bank_model.h"

namespace dcusim {

struct LdsParams {
    uint64_t size_bytes = 65536;
    LdsGeometry geometry;
    uint32_t latency = 64;         // cycles from the last group served to data back
    // Further latency per bank-conflict replay: a replayed access holds the
    // pipe one cycle but returns its data later still (H200: 2 cycles of
    // latency per replay in all, validation/results/h200-ldslatency).
    uint32_t replay_latency = 0;
    uint32_t alloc_granule = 512;  // allocation unit of a workgroup's LDS, bytes
    uint64_t reserved_bytes = 0;   // LDS each workgroup holds besides its own (the system's share)
    // Conflict cycles a workgroup launched beside running ones costs: the CU's next shared load
    // takes them. The H200 counts about one for each block launched beside blocks that already use
    // shared memory, whatever their global traffic, none for the blocks of the first wave, and all
    // of them on loads (validation/results/h200-ldsmix: waves8 against waves1, ld32_* beside loads
    // and stores).
    // A DCU's LDS is not known to: 0.
    uint32_t launch_conflict_cycles = 0;
    // Pipe cycles an instruction with no lane on takes (predicated off in every lane: the idle warps of a
    // tree scan or reduction issue them; `compute N lds S` in traces). No bank is read, no wavefront counted.
    uint32_t empty_cycles = 0;
};

// Its keys, in the order `dcusim --help` lists them; defaults are the initialisers above.
inline const ParamTable<LdsParams>& lds_param_table() {
    using P = LdsParams;
    using namespace limits;
    static const ParamTable<P> table{
        {
            param::size<P>("lds.size_bytes", "bytes", "LDS per CU", {1, kMaxLocalBytes}, &P::size_bytes),
            param::count<P>("lds.banks", "banks", "LDS banks", {1, 1024}, [](P& p) -> auto& { return p.geometry.banks; }),
            param::count<P>("lds.bank_bytes", "bytes", "width of one bank", {1, 64}, [](P& p) -> auto& { return p.geometry.bank_bytes; }),
            param::count<P>("lds.latency", "cycles", "last bank access to data back", {0, kMaxLatency}, &P::latency),
            param::count<P>("lds.replay_latency", "cycles",
                            "latency each bank-conflict replay adds beyond the pipe cycle it holds (data back bank_conflict_cycles x "
                            "this later)",
                            {0, kMaxLatency}, &P::replay_latency),
            param::count<P>("lds.launch_conflict_cycles", "cycles",
                            "conflict cycles the CU's next shared load takes when a workgroup is launched beside workgroups "
                            "that already used the LDS this kernel (the H200's profiler counts them)",
                            {0, 1024}, &P::launch_conflict_cycles),
            param::count<P>("lds.empty_cycles", "cycles",
                            "LDS pipe cycles an LDS instruction with no lane on (predicated off) takes; no bank access, no "
                            "wavefront counted (`compute N lds S` in traces)",
                            {0, kMaxLatency}, &P::empty_cycles),
            param::size<P>("lds.alloc_granule", "bytes", "LDS allocation unit per workgroup", {1, kMaxLocalBytes}, &P::alloc_granule),
            param::size<P>("lds.reserved_bytes", "bytes",
                           "LDS each workgroup holds besides its own (the system's share): counts toward the LDS occupancy limit and "
                           "the carve-out",
                           {0, kMaxLocalBytes}, &P::reserved_bytes),
        },
        {},
    };
    return table;
}

}  // namespace dcusim
