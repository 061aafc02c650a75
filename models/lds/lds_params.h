// The LDS's parameters and their preset keys (lds.*; the carve-outs of a unified L1 are the launch's:
// models/gpu/launch_params.h), each field declared beside its key (models/common/params.h): a new
// key is one edit here.
#pragma once

#include "../common/params.h"
#include "bank_model.h"

namespace dcusim {

// Which shared accesses lose data-stage cycles to the vector memory's returning load data.
enum class VectorDataStage : uint8_t { Off, Loads, All };

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
    // NVIDIA's L1 and shared memory are one data array behind one data stage: a global or local
    // load's data, read out of it, takes the stage one cycle per 128-byte line, and a shared access
    // served in such a cycle is served a cycle later, which the profiler counts as a bank conflict
    // (validation/results/h200-ldsmix). A DCU's LDS is its own SRAM beside the vector L1: Off.
    VectorDataStage vector_data = VectorDataStage::Off;
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
            param::choice<P>("lds.vector_data",
                             "off: the LDS has its own data path (a DCU); loads: a global or local load's returning data "
                             "takes the LDS's data stage one cycle per 128-byte line, and a shared load served then waits "
                             "a cycle, counted as a bank conflict (the H200's unified L1/shared data array); all: shared "
                             "stores too",
                             {{"off", VectorDataStage::Off}, {"loads", VectorDataStage::Loads}, {"all", VectorDataStage::All}},
                             &P::vector_data),
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
