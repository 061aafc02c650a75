// The fixed-latency memory's counters (docs/stats.md, "Fixed-latency memory").
#include "fixed_latency_memory.h"

namespace dcusim {

const CounterTable<FixedMemoryStats>& fixed_memory_counter_table() {
    using S = FixedMemoryStats;
    static const CounterTable<S> t({
        counter::sum<S>("gmem.requests", "requests", "everything the port received: wave and line requests", &S::requests),
        counter::sum<S>("gmem.wave_requests", "requests", "global, local and vector-path constant wave instructions", &S::wave_requests),
        counter::sum<S>("gmem.line_requests", "requests", "constant-cache fills", &S::line_requests),
        counter::sum<S>("gmem.lane_accesses", "lanes", "active lanes of the wave requests", &S::lane_accesses),
        counter::sum<S>("gmem.bytes", "bytes", "lanes x bytes per lane, plus the fill lines' bytes", &S::bytes),
    });
    return t;
}

void FixedMemoryStats::report(StatMap& m) const { fixed_memory_counter_table().report(*this, m); }

}  // namespace dcusim
