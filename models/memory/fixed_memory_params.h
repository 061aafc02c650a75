// The fixed-latency memory's parameter and its preset key (mem.latency; mem.model, which picks this
// memory, is the platform's: sim/preset.h), declared together (models/common/params.h).
#pragma once

#include "../common/params.h"

namespace dcusim {

struct FixedMemoryParams {
    uint32_t latency = 500;
};

// Its keys, in the order `dcusim --help` lists them; defaults are the initialisers above.
inline const ParamTable<FixedMemoryParams>& fixed_memory_param_table() {
    using P = FixedMemoryParams;
    static const ParamTable<P> table{
        {param::count<P>("mem.latency", "cycles", "latency of every request when mem.model = fixed", {0, limits::kMaxLatency},
                         &P::latency)},
        {},
    };
    return table;
}

}  // namespace dcusim
