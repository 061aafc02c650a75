// The fixed-latency memory's preset key (mem.latency; mem.model, which picks it, is the platform's).
#include "fixed_latency_memory.h"

namespace dcusim {

const ParamTable<FixedMemoryParams>& fixed_memory_param_table() {
    using P = FixedMemoryParams;
    static const ParamTable<P> table{
        {param::count<P>("mem.latency", "cycles", "latency of every request when mem.model = fixed", {0, limits::kMaxLatency},
                         &P::latency)},
        {},
    };
    return table;
}

}  // namespace dcusim
